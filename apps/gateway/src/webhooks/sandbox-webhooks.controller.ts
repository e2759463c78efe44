import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CallerContext, WEBHOOKS_SUBJECTS, WebhookTestResult } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { WebhookTestResultDto } from './dto/webhook-delivery.response';

@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox/webhooks')
export class SandboxWebhooksController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a signed test webhook now',
    description:
      'POSTs a `TEST` event, signed like every webhook, to the configured endpoint and answers with what the endpoint answered (`response_status`, `response_body`). ' +
      '`400 WEBHOOK_ENDPOINT_NOT_SET` when no endpoint is configured; `400 WEBHOOK_DELIVERY_ERROR` (with `details.statusCode` or ' +
      '`details.error`) when the endpoint does not answer 2xx in time. Not recorded in the delivery log, never retried.',
  })
  @ApiOkResponse({ type: WebhookTestResultDto })
  @ApiErrors(400, 401, 403)
  test(@Caller() caller: CallerContext): Promise<WebhookTestResult> {
    return this.services.request(WEBHOOKS_SUBJECTS.sendTest, {}, caller);
  }
}

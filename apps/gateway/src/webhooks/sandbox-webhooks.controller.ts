import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CallerContext, ReplayWebhooksRequest, WEBHOOK_REPLAY_ID_EXAMPLE, WEBHOOKS_SUBJECTS, WebhookReplay, WebhookTestResult } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { WebhookTestResultDto } from './dto/webhook-delivery.response';
import { WebhookReplayDto } from './dto/webhook-replay.response';

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

  @Post('replay')
  @HttpCode(202)
  @ApiOperation({
    summary: "Replay the platform's webhooks",
    description:
      "Sends again every webhook of the platform that the filter selects (`types`, `resourceId`, and the events' time range `from` to `to`; no filter: all), " +
      "in the original order of their events, one after another, each once, to `url` (a local listener such as `npm run webhooks:listen`) or the platform's endpoint. " +
      'Each is the original payload (same `id`, same bytes, signed like every webhook) marked with the header `X-Paykit-Replay: <replay id>`; ' +
      'the delivery log is not changed. At most 1000 webhooks per replay (`400` above: narrow the filter). Answers at once with the selection; ' +
      '`GET /sandbox/webhooks/replays/{id}` follows it. `400 WEBHOOK_ENDPOINT_NOT_SET` without `url` or endpoint. Sandbox only, Basic authentication only.',
  })
  @ApiAcceptedResponse({ type: WebhookReplayDto })
  @ApiErrors(400, 401, 403)
  replay(@Body() body: ReplayWebhooksRequest, @Caller() caller: CallerContext): Promise<WebhookReplay> {
    return this.services.request(WEBHOOKS_SUBJECTS.replay, { types: body.types, resourceId: body.resourceId, from: body.from, to: body.to, url: body.url }, caller);
  }

  @Get('replays/:replayId')
  @ApiOperation({ summary: 'Get a webhook replay', description: 'The replay with each selected webhook and what its receiver answered. Sandbox only, Basic authentication only.' })
  @ApiParam({ name: 'replayId', example: WEBHOOK_REPLAY_ID_EXAMPLE })
  @ApiOkResponse({ type: WebhookReplayDto })
  @ApiErrors(401, 403, 404)
  getReplay(@Param('replayId') replayId: string, @Caller() caller: CallerContext): Promise<WebhookReplay> {
    return this.services.request(WEBHOOKS_SUBJECTS.getReplay, { replayId }, caller);
  }
}

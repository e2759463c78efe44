import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CallerContext, ListWebhookDeliveriesRequest, Page, WEBHOOK_DELIVERY_ID_EXAMPLE, WEBHOOKS_SUBJECTS, WebhookDelivery, WebhookDeliveryDetail } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { RequiresPermission } from '../auth/permissions';
import { Caller } from '../auth/caller.decorator';
import { BasicAuthOnly } from '../auth/public.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { WebhookDeliveryDetailDto, WebhookDeliveryDto, WebhookDeliveryPageDto } from './dto/webhook-delivery.response';

/** The delivery log: every webhook the platform was sent, its attempts, and redelivery on demand. */
@ApiTags('Webhooks')
@ApiBasicAuth('BasicAuth')
@BasicAuthOnly()
@Controller('webhooks/deliveries')
export class WebhookDeliveriesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @ApiOperation({ summary: 'List webhook deliveries', description: 'Newest first, cursor-paginated; filter by event type, status or resource id.' })
  @ApiOkResponse({ type: WebhookDeliveryPageDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListWebhookDeliveriesRequest, @Caller() caller: CallerContext): Promise<Page<WebhookDelivery>> {
    return this.services.request(
      WEBHOOKS_SUBJECTS.listDeliveries,
      { type: query.type, status: query.status, resourceId: query.resourceId, limit: query.limit, cursor: query.cursor },
      caller,
    );
  }

  @Get(':deliveryId')
  @ApiOperation({ summary: 'Get a webhook delivery with its payload and every attempt' })
  @ApiParam({ name: 'deliveryId', example: WEBHOOK_DELIVERY_ID_EXAMPLE })
  @ApiOkResponse({ type: WebhookDeliveryDetailDto })
  @ApiErrors(401, 404)
  get(@Param('deliveryId') deliveryId: string, @Caller() caller: CallerContext): Promise<WebhookDeliveryDetail> {
    return this.services.request(WEBHOOKS_SUBJECTS.getDelivery, { deliveryId }, caller);
  }

  @RequiresPermission('MANAGE')
  @Post(':deliveryId/redeliver')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Redeliver a webhook',
    description:
      'Queues an immediate attempt of the same payload (same `id`, so receivers can deduplicate), whatever the delivery status, ' +
      'with a fresh retry schedule if it fails. `400 WEBHOOK_ENDPOINT_NOT_SET` when no endpoint is configured.',
  })
  @ApiParam({ name: 'deliveryId', example: WEBHOOK_DELIVERY_ID_EXAMPLE })
  @ApiAcceptedResponse({ type: WebhookDeliveryDto })
  @ApiErrors(400, 401, 404)
  redeliver(@Param('deliveryId') deliveryId: string, @Caller() caller: CallerContext): Promise<WebhookDelivery> {
    return this.services.request(WEBHOOKS_SUBJECTS.redeliver, { deliveryId }, caller);
  }
}

import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Page, uuidParam } from '@agp/http';

import { ListWebhookDeliveriesQueryDto } from './dto/list-webhook-deliveries-query.dto';
import { RotatedWebhookSecret } from './dto/rotated-webhook-secret.dto';
import { WebhookDelivery } from './webhook-delivery.types';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookSettingsService } from './webhook-settings.service';

/** D19: the URL is set via `PATCH /relay/v1/agents/{agentId}`; the service checks access. */
@Controller('relay/v1/agents/:agentId')
export class WebhooksController {
  constructor(
    private readonly settings: WebhookSettingsService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  @Post('webhook-secret/rotate')
  @HttpCode(200)
  @RequirePermission('REGISTRY', 'WRITE')
  rotateSecret(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
  ): Promise<RotatedWebhookSecret> {
    return this.settings.rotate(ctx, agentId);
  }

  @Get('webhook-deliveries')
  list(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
    @Query() query: ListWebhookDeliveriesQueryDto,
  ): Promise<Page<WebhookDelivery>> {
    return this.deliveries.list(ctx, agentId, query);
  }

  @Get('webhook-deliveries/:deliveryId')
  get(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
    @Param('deliveryId', uuidParam('deliveryId')) deliveryId: string,
  ): Promise<WebhookDelivery> {
    return this.deliveries.get(ctx, agentId, deliveryId);
  }

  @Post('webhook-deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  redeliver(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
    @Param('deliveryId', uuidParam('deliveryId')) deliveryId: string,
  ): Promise<WebhookDelivery> {
    return this.deliveries.redeliver(ctx, agentId, deliveryId);
  }
}

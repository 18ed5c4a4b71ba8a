import { PageQueryDto } from '@agp/http';
import { IsIn, IsOptional } from 'class-validator';

import { WEBHOOK_DELIVERY_STATUSES, WebhookDeliveryStatus } from '../webhook-delivery.types';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '../webhook-events';

export class ListWebhookDeliveriesQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_STATUSES)
  status?: WebhookDeliveryStatus;

  @IsOptional()
  @IsIn(WEBHOOK_EVENT_TYPES)
  eventType?: WebhookEventType;
}

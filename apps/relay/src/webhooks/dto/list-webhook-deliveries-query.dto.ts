import { PageQueryDto } from '@agp/http';
import { IsIn, IsOptional } from 'class-validator';

import {
  A2A_PUSH_EVENT_TYPE,
  WEBHOOK_DELIVERY_STATUSES,
  WebhookDeliveryStatus,
} from '../webhook-delivery.types';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '../webhook-events';

export class ListWebhookDeliveriesQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_STATUSES)
  status?: WebhookDeliveryStatus;

  @IsOptional()
  @IsIn([...WEBHOOK_EVENT_TYPES, A2A_PUSH_EVENT_TYPE])
  eventType?: WebhookEventType | typeof A2A_PUSH_EVENT_TYPE;
}

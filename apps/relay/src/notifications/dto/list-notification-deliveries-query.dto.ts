import { PageQueryDto } from '@agp/http';
import { IsIn, IsOptional } from 'class-validator';

import { NOTIFICATION_DELIVERY_STATUSES, NotificationDeliveryStatus } from '../notification.types';

export class ListNotificationDeliveriesQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(NOTIFICATION_DELIVERY_STATUSES)
  status?: NotificationDeliveryStatus;
}

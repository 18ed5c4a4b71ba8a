import { isPresent, isSet } from '@agp/http';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsString,
  Length,
  ValidateIf,
} from 'class-validator';

import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_SEVERITIES,
  NotificationEvent,
  NotificationSeverity,
} from '../notification.types';

/**
 * A PATCH of a target: absent fields are kept, `minSeverity: null` clears the threshold. The kind
 * never changes (a different kind is a different target). A `config` replaces the stored one,
 * except that credentials it leaves out are kept (W15), so a channel moves without the token.
 */
export class UpdateNotificationTargetDto {
  @ValidateIf(isPresent)
  @IsString()
  @Length(1, 200)
  name?: string;

  @ValidateIf(isPresent)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(NOTIFICATION_EVENTS.length)
  @ArrayUnique()
  @IsIn(NOTIFICATION_EVENTS, { each: true })
  events?: NotificationEvent[];

  @ValidateIf(isSet)
  @IsIn(NOTIFICATION_SEVERITIES)
  minSeverity?: NotificationSeverity | null;

  @ValidateIf(isPresent)
  @IsBoolean()
  enabled?: boolean;

  @ValidateIf(isPresent)
  @IsObject()
  config?: Record<string, unknown>;
}

import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
} from 'class-validator';

import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_SEVERITIES,
  NOTIFICATION_TARGET_KINDS,
  NotificationEvent,
  NotificationSeverity,
  NotificationTargetKind,
} from '../notification.types';

/**
 * D58: `{name, kind, events, minSeverity?, config}`; `config` is checked against the kind's own
 * shape (`target-configs.ts`), its credentials write-only. `enabled` (default true) is W22's.
 */
export class CreateNotificationTargetDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsIn(NOTIFICATION_TARGET_KINDS)
  kind: NotificationTargetKind;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(NOTIFICATION_EVENTS.length)
  @ArrayUnique()
  @IsIn(NOTIFICATION_EVENTS, { each: true })
  events: NotificationEvent[];

  /** Alerts below it are not sent to this target; absent: every severity. */
  @IsOptional()
  @IsIn(NOTIFICATION_SEVERITIES)
  minSeverity?: NotificationSeverity;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @IsObject()
  config: Record<string, unknown>;
}

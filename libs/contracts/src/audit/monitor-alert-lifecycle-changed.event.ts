import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import {
  ALERT_LIFECYCLE_ACTIONS,
  ALERT_STATUSES,
  AlertLifecycleAction,
  AlertStatus,
  DETECTORS,
  DISMISS_REASONS,
  Detector,
  DismissReason,
} from '../enums/monitor';
import { AuditableEventData } from '../events/auditable-event.data';
import { MonitorSubject } from './monitor-subject';

/** `MONITOR_ALERT_LIFECYCLE_CHANGED`: someone acknowledged, resolved, dismissed or reopened an alert (D14). */
export class MonitorAlertLifecycleChangedData extends AuditableEventData {
  @IsUUID()
  alertId: string;

  @IsIn(DETECTORS)
  detector: Detector;

  // ValidateNested alone lets a missing object through; the subject is required (D28).
  @IsDefined()
  @ValidateNested()
  @Type(() => MonitorSubject)
  subject: MonitorSubject;

  @IsIn(ALERT_LIFECYCLE_ACTIONS)
  lifecycleAction: AlertLifecycleAction;

  @IsIn(ALERT_STATUSES)
  fromStatus: AlertStatus;

  @IsIn(ALERT_STATUSES)
  toStatus: AlertStatus;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  note?: string;

  @IsOptional()
  @IsIn(DISMISS_REASONS)
  dismissedReason?: DismissReason;
}

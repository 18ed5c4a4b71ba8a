import { Type } from 'class-transformer';
import { IsDateString, IsDefined, IsIn, IsObject, IsUUID, ValidateNested } from 'class-validator';

import {
  ANOMALY_DIRECTIONS,
  AnomalyDirection,
  DETECTORS,
  Detector,
  SEVERITIES,
  Severity,
} from '../enums/monitor';
import { AuditableEventData } from '../events/auditable-event.data';
import { EVIDENCE_DISCRIMINATOR, MonitorEvidence } from './monitor-evidence';
import { MonitorSubject } from './monitor-subject';

/**
 * `MONITOR_ALERT_TRIGGERED`: the audit service's monitors opened a new alert (D14). A repeat
 * finding that updates an open alert does not publish it again. `summary` carries the alert summary.
 */
export class MonitorAlertTriggeredData extends AuditableEventData {
  @IsUUID()
  alertId: string;

  @IsUUID()
  findingId: string;

  @IsIn(DETECTORS)
  detector: Detector;

  @IsIn(SEVERITIES)
  severity: Severity;

  @IsIn(ANOMALY_DIRECTIONS)
  direction: AnomalyDirection;

  // ValidateNested alone lets a missing object through; the subject is required (D28).
  @IsDefined()
  @ValidateNested()
  @Type(() => MonitorSubject)
  subject: MonitorSubject;

  @IsDateString()
  detectedAt: string;

  @IsObject()
  @ValidateNested()
  @Type(() => Object, EVIDENCE_DISCRIMINATOR)
  evidence: MonitorEvidence;
}

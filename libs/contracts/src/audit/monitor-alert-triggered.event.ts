import { Type } from 'class-transformer';
import {
  IsDateString,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsUUID,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

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

/** A repeat finding that updates an open alert does not publish it again (D14). */
export class MonitorAlertTriggeredData extends AuditableEventData {
  @IsUUID()
  alertId: string;

  @IsUUID()
  findingId: string;

  /** A built-in detector's alert; absent on a custom monitor's, which names `monitorId` (issue 17). */
  @ValidateIf((data: { monitorId?: string }) => data.monitorId === undefined)
  @IsIn(DETECTORS)
  detector?: Detector;

  @IsOptional()
  @IsUUID()
  monitorId?: string;

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

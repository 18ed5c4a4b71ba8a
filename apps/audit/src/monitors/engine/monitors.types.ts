import { AnomalyDirection, Detector, MonitorEvidence, Severity, SubjectType } from '@agp/contracts';

export interface SubjectRef {
  type: SubjectType;
  id: string;
}

/** What an alert of a custom monitor stores as its detector; the API answers `monitorId` instead. */
export const CUSTOM_MONITOR = 'CUSTOM_MONITOR';
export type AlertSource = Detector | typeof CUSTOM_MONITOR;

/** One detector's conclusion at one tick: becomes a new alert or updates the open one (D14). */
export interface Finding {
  findingId: string;
  detector: AlertSource;
  monitorId?: string;
  severity: Severity;
  direction: AnomalyDirection;
  subject: SubjectRef;
  summary: string;
  evidence: MonitorEvidence;
  detectedAt: Date;
}

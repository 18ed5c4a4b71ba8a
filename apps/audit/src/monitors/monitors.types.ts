import { AnomalyDirection, Detector, MonitorEvidence, Severity, SubjectType } from '@agp/contracts';

export interface SubjectRef {
  type: SubjectType;
  id: string;
}

/** One detector's conclusion at one tick: becomes a new alert or updates the open one (D14). */
export interface Finding {
  findingId: string;
  detector: Detector;
  severity: Severity;
  direction: AnomalyDirection;
  subject: SubjectRef;
  summary: string;
  evidence: MonitorEvidence;
  detectedAt: Date;
}

import { AlertSource } from '../engine/monitors.types';
import {
  AlertLifecycleAction,
  AlertStatus,
  AnomalyDirection,
  DismissReason,
  MonitorEvidence,
  Severity,
  SubjectType,
} from '@agp/contracts';

export interface AlertRecord {
  id: string;
  findingId: string;
  detector: AlertSource;
  monitorId: string | null;
  severity: Severity;
  direction: AnomalyDirection;
  status: AlertStatus;
  subjectType: SubjectType;
  subjectId: string;
  detectedAt: Date;
  lastDetectedAt: Date;
  occurrences: number;
  summary: string;
  evidence: MonitorEvidence;
  acknowledgedByLabel: string | null;
  acknowledgedAt: Date | null;
  resolvedByLabel: string | null;
  resolvedAt: Date | null;
  dismissedReason: DismissReason | null;
  suppressedUntil: Date | null;
  /** The mute or downtime that kept this alert quiet (M22), while it does. */
  suppressedByKind: 'MUTE' | 'DOWNTIME' | null;
  suppressedById: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface HistoryRecord {
  alertId: string;
  at: Date;
  action: AlertLifecycleAction;
  actorId: string;
  actorLabel: string;
  note: string | null;
}

/** The columns of an alert under their camelCase names, for every SELECT and RETURNING. */
export const ALERT_COLUMNS = `
  id, finding_id AS "findingId", detector, monitor_id AS "monitorId", severity, direction, status,
  subject_type AS "subjectType", subject_id AS "subjectId", detected_at AS "detectedAt",
  last_detected_at AS "lastDetectedAt", occurrences, summary, evidence,
  acknowledged_by_label AS "acknowledgedByLabel", acknowledged_at AS "acknowledgedAt",
  resolved_by_label AS "resolvedByLabel", resolved_at AS "resolvedAt",
  dismissed_reason AS "dismissedReason", suppressed_until AS "suppressedUntil",
  suppressed_by_kind AS "suppressedByKind", suppressed_by_id AS "suppressedById",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

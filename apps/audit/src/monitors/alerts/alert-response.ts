import {
  AlertLifecycleAction,
  AlertStatus,
  AnomalyDirection,
  Detector,
  DismissReason,
  MonitorEvidence,
  Severity,
  SubjectType,
} from '@agp/contracts';

import { CUSTOM_MONITOR } from '../engine/monitors.types';
import { AlertRecord, HistoryRecord } from './alert.record';

export interface AlertHistoryEntry {
  at: string;
  action: AlertLifecycleAction;
  actorId: string;
  actorLabel: string;
  note: string | null;
}

/**
 * The specification's "Monitor alert detail", field for field, plus `id` (the alertId of the
 * paths), `lastDetectedAt`, `occurrences`, `createdAt` and `updatedAt` (D31, M2).
 */
export interface AlertResponse {
  id: string;
  findingId: string;
  /** Absent (null) on an alert of a custom monitor, which names `monitorId` (issue 17). */
  detector: Detector | null;
  monitorId: string | null;
  severity: Severity;
  direction: AnomalyDirection;
  status: AlertStatus;
  subject: { type: SubjectType; id: string };
  detectedAt: string;
  summary: string;
  evidence: MonitorEvidence;
  history: AlertHistoryEntry[];
  acknowledgedByLabel: string | null;
  resolvedByLabel: string | null;
  suppressedUntil: string | null;
  /** The mute or downtime keeping the alert quiet (M22), null when none does. */
  suppressedBy: { kind: 'MUTE' | 'DOWNTIME'; id: string } | null;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
  dismissedReason: DismissReason | null;
  lastDetectedAt: string;
  occurrences: number;
  createdAt: string;
  updatedAt: string;
}

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

export function toAlertResponse(alert: AlertRecord, history: HistoryRecord[]): AlertResponse {
  return {
    id: alert.id,
    findingId: alert.findingId,
    detector: alert.detector === CUSTOM_MONITOR ? null : alert.detector,
    monitorId: alert.monitorId,
    severity: alert.severity,
    direction: alert.direction,
    status: alert.status,
    subject: { type: alert.subjectType, id: alert.subjectId },
    detectedAt: alert.detectedAt.toISOString(),
    summary: alert.summary,
    evidence: alert.evidence,
    history: history.map((entry) => ({
      at: entry.at.toISOString(),
      action: entry.action,
      actorId: entry.actorId,
      actorLabel: entry.actorLabel,
      note: entry.note,
    })),
    acknowledgedByLabel: alert.acknowledgedByLabel,
    resolvedByLabel: alert.resolvedByLabel,
    suppressedUntil: iso(alert.suppressedUntil),
    suppressedBy:
      alert.suppressedByKind && alert.suppressedById
        ? { kind: alert.suppressedByKind, id: alert.suppressedById }
        : null,
    acknowledgedAt: iso(alert.acknowledgedAt),
    resolvedAt: iso(alert.resolvedAt),
    dismissedReason: alert.dismissedReason,
    lastDetectedAt: alert.lastDetectedAt.toISOString(),
    occurrences: alert.occurrences,
    createdAt: alert.createdAt.toISOString(),
    updatedAt: alert.updatedAt.toISOString(),
  };
}

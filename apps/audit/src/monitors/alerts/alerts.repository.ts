import { Injectable } from '@nestjs/common';
import { AlertStatus, Detector, Severity, SubjectType } from '@agp/contracts';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { Finding } from '../monitors.types';
import { ALERT_COLUMNS, AlertRecord, HistoryRecord } from './alert.record';
import { LifecycleFields } from './alert-transitions';

const T = `${AUDIT_SCHEMA}.monitor_alerts`;
const H = `${AUDIT_SCHEMA}.monitor_alert_history`;

/** A mute or downtime a finding fell into (M22): the alert is kept, quiet, until `until`. */
export interface Suppression {
  kind: 'MUTE' | 'DOWNTIME';
  id: string;
  until: Date | null;
}

const NO_MONITOR = `'00000000-0000-0000-0000-000000000000'::uuid`;
const SAME_SOURCE = `detector = $2 AND coalesce(monitor_id, ${NO_MONITOR}) = coalesce($3::uuid, ${NO_MONITOR})`;

export interface AlertFilter {
  statuses?: AlertStatus[];
  monitorId?: string;
  severities?: Severity[];
  detectors?: Detector[];
  subjectType?: SubjectType;
  subjectId?: string;
  from?: Date;
  to?: Date;
}

const LIFECYCLE_COLUMNS: Record<Exclude<keyof LifecycleFields, 'status'>, string> = {
  acknowledgedAt: 'acknowledged_at',
  acknowledgedByLabel: 'acknowledged_by_label',
  resolvedAt: 'resolved_at',
  resolvedByLabel: 'resolved_by_label',
  dismissedReason: 'dismissed_reason',
  suppressedUntil: 'suppressed_until',
};

@Injectable()
export class AlertsRepository {
  async find(
    tx: Tx,
    tenantId: string,
    alertId: string,
    forUpdate = false,
  ): Promise<AlertRecord | undefined> {
    const rows: AlertRecord[] = await tx.query(
      `SELECT ${ALERT_COLUMNS} FROM ${T} WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [tenantId, alertId],
    );
    return rows[0];
  }

  async list(
    tx: Tx,
    tenantId: string,
    filter: AlertFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: AlertRecord[]; total: number }> {
    const conditions = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const add = (sql: string, value: unknown): void => {
      params.push(value);
      conditions.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.statuses?.length) {
      add('status = ANY(?)', filter.statuses);
    }
    if (filter.severities?.length) {
      add('severity = ANY(?)', filter.severities);
    }
    if (filter.detectors?.length) {
      add('detector = ANY(?)', filter.detectors);
    }
    if (filter.monitorId) {
      add('monitor_id = ?', filter.monitorId);
    }
    if (filter.subjectType) {
      add('subject_type = ?', filter.subjectType);
    }
    if (filter.subjectId) {
      add('subject_id = ?', filter.subjectId);
    }
    if (filter.from) {
      add('detected_at >= ?', filter.from);
    }
    if (filter.to) {
      add('detected_at < ?', filter.to);
    }
    const where = conditions.join(' AND ');
    const counted: Array<{ total: string }> = await tx.query(
      `SELECT count(*) AS total FROM ${T} WHERE ${where}`,
      params,
    );
    const rows: AlertRecord[] = await tx.query(
      `SELECT ${ALERT_COLUMNS} FROM ${T} WHERE ${where}
       ORDER BY detected_at DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return { rows, total: Number(counted[0]?.total ?? 0) };
  }

  async historyOf(tx: Tx, tenantId: string, alertIds: string[]): Promise<HistoryRecord[]> {
    if (alertIds.length === 0) {
      return [];
    }
    return tx.query(
      `SELECT alert_id AS "alertId", at, action, actor_id AS "actorId", actor_label AS "actorLabel", note
       FROM ${H} WHERE tenant_id = $1 AND alert_id = ANY($2) ORDER BY alert_id, id`,
      [tenantId, alertIds],
    );
  }

  async applyLifecycle(
    tx: Tx,
    tenantId: string,
    alertId: string,
    fields: LifecycleFields,
  ): Promise<void> {
    const sets = ['status = $3', 'updated_at = now()'];
    const params: unknown[] = [tenantId, alertId, fields.status];
    for (const [key, column] of Object.entries(LIFECYCLE_COLUMNS)) {
      const value = fields[key as keyof typeof LIFECYCLE_COLUMNS];
      if (value !== undefined) {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      }
    }
    await tx.query(`UPDATE ${T} SET ${sets.join(', ')} WHERE tenant_id = $1 AND id = $2`, params);
  }

  async appendHistory(tx: Tx, tenantId: string, entry: HistoryRecord): Promise<void> {
    await tx.query(
      `INSERT INTO ${H} (tenant_id, alert_id, at, action, actor_id, actor_label, note) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        tenantId,
        entry.alertId,
        entry.at,
        entry.action,
        entry.actorId,
        entry.actorLabel,
        entry.note,
      ],
    );
  }

  /** The OPEN or ACKNOWLEDGED alert of a detector and subject other than `alertId`, if any (D14). */
  async findOtherActive(tx: Tx, tenantId: string, alert: AlertRecord): Promise<string | undefined> {
    const rows: Array<{ id: string }> = await tx.query(
      `SELECT id FROM ${T} WHERE tenant_id = $1 AND ${SAME_SOURCE} AND subject_type = $4 AND subject_id = $5
         AND status IN ('OPEN', 'ACKNOWLEDGED') AND id <> $6`,
      [tenantId, alert.detector, alert.monitorId, alert.subjectType, alert.subjectId, alert.id],
    );
    return rows[0]?.id;
  }

  /** Whether a dismissed alert of this detector and subject still suppresses findings at `at` (M9). */
  async isSuppressed(tx: Tx, tenantId: string, finding: Finding): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM ${T} WHERE tenant_id = $1 AND ${SAME_SOURCE} AND subject_type = $4 AND subject_id = $5
         AND status = 'DISMISSED' AND suppressed_until > $6 LIMIT 1`,
      [
        tenantId,
        finding.detector,
        finding.monitorId ?? null,
        finding.subject.type,
        finding.subject.id,
        finding.detectedAt,
      ],
    );
    return rows.length > 0;
  }

  /** The OPEN or ACKNOWLEDGED alert a finding would update, if any. */
  async findActiveFor(
    tx: Tx,
    tenantId: string,
    finding: Finding,
  ): Promise<AlertRecord | undefined> {
    const rows: AlertRecord[] = await tx.query(
      `SELECT ${ALERT_COLUMNS} FROM ${T} WHERE tenant_id = $1 AND ${SAME_SOURCE} AND subject_type = $4
         AND subject_id = $5 AND status IN ('OPEN', 'ACKNOWLEDGED')`,
      [
        tenantId,
        finding.detector,
        finding.monitorId ?? null,
        finding.subject.type,
        finding.subject.id,
      ],
    );
    return rows[0];
  }

  /** The OPEN or ACKNOWLEDGED alerts of some detectors and custom monitors (for self-resolution). */
  async activeOf(
    tx: Tx,
    tenantId: string,
    detectors: readonly string[],
    monitorIds: readonly string[],
  ): Promise<AlertRecord[]> {
    return tx.query(
      `SELECT ${ALERT_COLUMNS} FROM ${T} WHERE tenant_id = $1 AND status IN ('OPEN', 'ACKNOWLEDGED')
         AND (detector = ANY($2) OR monitor_id = ANY($3))`,
      [tenantId, detectors, monitorIds],
    );
  }

  /**
   * D14: a finding opens a new alert, or updates the OPEN or ACKNOWLEDGED one of its detector and
   * subject (the partial unique index decides, so two writers cannot both open one). Severity only
   * rises; evidence, summary and direction are the latest.
   */
  async upsertFinding(
    tx: Tx,
    tenantId: string,
    alertId: string,
    finding: Finding,
    suppression?: Suppression,
  ): Promise<{ alert: AlertRecord; isNew: boolean }> {
    const rows: Array<AlertRecord & { isNew: boolean }> = await tx.query(
      `INSERT INTO ${T} AS a (id, tenant_id, finding_id, detector, severity, direction, status, subject_type,
         subject_id, detected_at, last_detected_at, summary, evidence, monitor_id, suppressed_by_kind,
         suppressed_by_id, suppressed_until)
       VALUES ($1, $2, $3, $4, $5, $6, 'OPEN', $7, $8, $9, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (tenant_id, detector, (coalesce(monitor_id, ${NO_MONITOR})), subject_type, subject_id)
         WHERE status IN ('OPEN', 'ACKNOWLEDGED')
       DO UPDATE SET
         suppressed_by_kind = excluded.suppressed_by_kind,
         suppressed_by_id = excluded.suppressed_by_id,
         suppressed_until = excluded.suppressed_until,
         finding_id = excluded.finding_id,
         severity = CASE WHEN array_position(ARRAY['LOW','MEDIUM','HIGH','CRITICAL'], excluded.severity)
                             > array_position(ARRAY['LOW','MEDIUM','HIGH','CRITICAL'], a.severity)
                        THEN excluded.severity ELSE a.severity END,
         direction = excluded.direction,
         summary = excluded.summary,
         evidence = excluded.evidence,
         last_detected_at = GREATEST(a.last_detected_at, excluded.last_detected_at),
         occurrences = a.occurrences + CASE WHEN a.finding_id = excluded.finding_id THEN 0 ELSE 1 END,
         updated_at = now()
       RETURNING ${ALERT_COLUMNS}, (xmax = 0) AS "isNew"`,
      [
        alertId,
        tenantId,
        finding.findingId,
        finding.detector,
        finding.severity,
        finding.direction,
        finding.subject.type,
        finding.subject.id,
        finding.detectedAt,
        finding.summary,
        JSON.stringify(finding.evidence),
        finding.monitorId ?? null,
        suppression?.kind ?? null,
        suppression?.id ?? null,
        suppression?.until ?? null,
      ],
    );
    const { isNew, ...alert } = rows[0];
    return { alert, isNew };
  }
}

import { Injectable } from '@nestjs/common';
import { AlertStatus, Detector, Severity, SubjectType } from '@agp/contracts';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { Finding } from '../engine/monitors.types';
import { ALERT_COLUMNS, AlertRecord, HistoryRecord } from './alert.record';
import { LifecycleFields } from '../engine/alert-transitions';

const T = `${AUDIT_SCHEMA}.monitor_alerts`;
const H = `${AUDIT_SCHEMA}.monitor_alert_history`;

/** A mute or downtime a finding fell into (M22): the alert is kept, quiet, until `until`. */
export interface Suppression {
  kind: 'MUTE' | 'DOWNTIME';
  id: string;
  until: Date | null;
}

const NO_MONITOR = `'00000000-0000-0000-0000-000000000000'::uuid`;
/** D14: what a repeat finding changes on its active alert (severity only rises). */
const UPSERT_SET = `
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
         updated_at = now()`;

const SAME_SOURCE = `detector = $2 AND coalesce(monitor_id, ${NO_MONITOR}) = coalesce($3::uuid, ${NO_MONITOR})`;

/** The source and subject an alert is unique by (D14's index), as one string. */
export function sourceKey(
  detector: string,
  monitorId: string | null | undefined,
  subjectType: string,
  subjectId: string,
): string {
  return `${detector}|${monitorId ?? ''}|${subjectType}|${subjectId.toLowerCase()}`;
}

const FINDING_KEYS = `unnest($2::text[], $3::uuid[], $4::text[], $5::uuid[], $6::timestamptz[])
  WITH ORDINALITY AS f(f_detector, f_monitor, f_type, f_subject, f_at, i)`;

function sameKeyAs(a: string): string {
  return `${a}.detector = f.f_detector
    AND coalesce(${a}.monitor_id, ${NO_MONITOR}) = coalesce(f.f_monitor, ${NO_MONITOR})
    AND ${a}.subject_type = f.f_type AND ${a}.subject_id = f.f_subject`;
}

function keyParams(findings: Finding[]): unknown[] {
  return [
    findings.map((f) => f.detector),
    findings.map((f) => f.monitorId ?? null),
    findings.map((f) => f.subject.type),
    findings.map((f) => f.subject.id),
    findings.map((f) => f.detectedAt),
  ];
}

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

  // M9: the findings (their 0-based indexes) that a DISMISSED alert of the same source and subject
  // still suppresses; one statement for a whole tick (M28).
  async suppressedAmong(tx: Tx, tenantId: string, findings: Finding[]): Promise<Set<number>> {
    if (findings.length === 0) {
      return new Set();
    }
    const rows: Array<{ i: string }> = await tx.query(
      `SELECT f.i FROM ${FINDING_KEYS} WHERE EXISTS (
         SELECT 1 FROM ${T} a WHERE a.tenant_id = $1 AND ${sameKeyAs('a')}
           AND a.status = 'DISMISSED' AND a.suppressed_until > f.f_at)`,
      [tenantId, ...keyParams(findings)],
    );
    return new Set(rows.map((row) => Number(row.i) - 1));
  }

  /** The OPEN or ACKNOWLEDGED alert each finding would update, in the findings' order (M28). */
  async activeForAll(
    tx: Tx,
    tenantId: string,
    findings: Finding[],
  ): Promise<Array<AlertRecord | undefined>> {
    if (findings.length === 0) {
      return [];
    }
    const rows: Array<AlertRecord & { i: string }> = await tx.query(
      `SELECT f.i, ${ALERT_COLUMNS} FROM ${FINDING_KEYS}
       JOIN ${T} a ON a.tenant_id = $1 AND ${sameKeyAs('a')} AND a.status IN ('OPEN', 'ACKNOWLEDGED')`,
      [tenantId, ...keyParams(findings)],
    );
    const byIndex = new Map(rows.map(({ i, ...alert }) => [Number(i) - 1, alert]));
    return findings.map((_f, i) => byIndex.get(i));
  }

  /** One statement for all (M28), answered in the given order (D14). */
  async upsertFindings(
    tx: Tx,
    tenantId: string,
    items: Array<{ alertId: string; finding: Finding; suppression?: Suppression }>,
  ): Promise<Array<{ alert: AlertRecord; isNew: boolean }>> {
    if (items.length === 0) {
      return [];
    }
    const column = <T>(of: (item: (typeof items)[number]) => T): T[] => items.map(of);
    const rows: Array<AlertRecord & { isNew: boolean }> = await tx.query(
      `INSERT INTO ${T} AS a (id, tenant_id, finding_id, detector, severity, direction, status, subject_type,
         subject_id, detected_at, last_detected_at, summary, evidence, monitor_id, suppressed_by_kind,
         suppressed_by_id, suppressed_until)
       SELECT u.id, $1, u.finding_id, u.detector, u.severity, u.direction, 'OPEN', u.subject_type, u.subject_id,
         u.detected_at, u.detected_at, u.summary, u.evidence::jsonb, u.monitor_id, u.kind, u.by_id, u.until
       FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::uuid[],
         $9::timestamptz[], $10::text[], $11::text[], $12::uuid[], $13::text[], $14::uuid[], $15::timestamptz[])
         AS u(id, finding_id, detector, severity, direction, subject_type, subject_id, detected_at, summary,
           evidence, monitor_id, kind, by_id, until)
       ON CONFLICT (tenant_id, detector, (coalesce(monitor_id, ${NO_MONITOR})), subject_type, subject_id)
         WHERE status IN ('OPEN', 'ACKNOWLEDGED')
       DO UPDATE SET ${UPSERT_SET}
       RETURNING ${ALERT_COLUMNS}, (xmax = 0) AS "isNew"`,
      [
        tenantId,
        column((x) => x.alertId),
        column((x) => x.finding.findingId),
        column((x) => x.finding.detector),
        column((x) => x.finding.severity),
        column((x) => x.finding.direction),
        column((x) => x.finding.subject.type),
        column((x) => x.finding.subject.id),
        column((x) => x.finding.detectedAt),
        column((x) => x.finding.summary),
        column((x) => JSON.stringify(x.finding.evidence)),
        column((x) => x.finding.monitorId ?? null),
        column((x) => x.suppression?.kind ?? null),
        column((x) => x.suppression?.id ?? null),
        column((x) => x.suppression?.until ?? null),
      ],
    );
    const byKey = new Map(
      rows.map(({ isNew, ...alert }) => [
        sourceKey(alert.detector, alert.monitorId, alert.subjectType, alert.subjectId),
        { alert, isNew },
      ]),
    );
    return items.map(({ finding: f }) => {
      const row = byKey.get(sourceKey(f.detector, f.monitorId, f.subject.type, f.subject.id));
      if (!row) {
        throw new Error(`no alert written for finding ${f.findingId}`);
      }
      return row;
    });
  }
}

import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { Downtime, Mute, QuietTarget } from './quiet.types';

const MU = `${AUDIT_SCHEMA}.monitor_mutes`;
const DT = `${AUDIT_SCHEMA}.monitor_downtimes`;
const TARGET = `scope, monitor_id AS "monitorId", detector, subject_type AS "subjectType", subject_id AS "subjectId"`;
const MUTE_COLUMNS = `id, ${TARGET}, reason, starts_at AS "startsAt", ends_at AS "endsAt",
  created_by_label AS "createdByLabel", unmuted_at AS "unmutedAt", unmuted_by_label AS "unmutedByLabel",
  created_at AS "createdAt", updated_at AS "updatedAt"`;
const DOWNTIME_COLUMNS = `id, ${TARGET}, reason, starts_at AS "startsAt", duration_minutes AS "durationMinutes",
  recurrence, repeat_until AS "repeatUntil", created_by_label AS "createdByLabel",
  cancelled_at AS "cancelledAt", cancelled_by_label AS "cancelledByLabel",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

function targetParams(target: QuietTarget): unknown[] {
  return [target.scope, target.monitorId, target.detector, target.subjectType, target.subjectId];
}

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

/** Every query on mutes and downtimes (M22); each takes the tenant id. */
@Injectable()
export class QuietRepository {
  async insertMute(
    tx: Tx,
    tenantId: string,
    mute: Pick<Mute, 'id' | 'reason' | 'startsAt' | 'endsAt' | 'createdByLabel'> & QuietTarget,
  ): Promise<Mute> {
    const rows: Mute[] = await tx.query(
      `INSERT INTO ${MU} (id, tenant_id, scope, monitor_id, detector, subject_type, subject_id, reason, starts_at,
         ends_at, created_by_label) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${MUTE_COLUMNS}`,
      [
        mute.id,
        tenantId,
        ...targetParams(mute),
        mute.reason,
        mute.startsAt,
        mute.endsAt,
        mute.createdByLabel,
      ],
    );
    return rows[0];
  }

  async findMute(tx: Tx, tenantId: string, id: string): Promise<Mute | undefined> {
    const rows: Mute[] = await tx.query(
      `SELECT ${MUTE_COLUMNS} FROM ${MU} WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
      [tenantId, id],
    );
    return rows[0];
  }

  async endMute(tx: Tx, tenantId: string, id: string, at: Date, label: string): Promise<Mute> {
    const result: unknown = await tx.query(
      `UPDATE ${MU} SET unmuted_at = $3, unmuted_by_label = $4, updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING ${MUTE_COLUMNS}`,
      [tenantId, id, at, label],
    );
    return rowsOf<Mute>(result)[0];
  }

  /** Mutes, newest first; `activeAt` keeps those in force then. */
  async listMutes(
    tx: Tx,
    tenantId: string,
    activeAt: Date | undefined,
    limit: number,
    offset: number,
  ): Promise<{ items: Mute[]; total: number }> {
    const where = `tenant_id = $1 AND ($2::timestamptz IS NULL OR (starts_at <= $2 AND (ends_at IS NULL OR ends_at > $2)
      AND (unmuted_at IS NULL OR unmuted_at > $2)))`;
    const items: Mute[] = await tx.query(
      `SELECT ${MUTE_COLUMNS} FROM ${MU} WHERE ${where} ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
      [tenantId, activeAt ?? null, limit, offset],
    );
    const [count] = await tx.query<Array<{ n: string }>>(
      `SELECT count(*) AS n FROM ${MU} WHERE ${where}`,
      [tenantId, activeAt ?? null],
    );
    return { items, total: Number(count?.n ?? 0) };
  }

  async insertDowntime(
    tx: Tx,
    tenantId: string,
    downtime: Pick<
      Downtime,
      | 'id'
      | 'reason'
      | 'startsAt'
      | 'durationMinutes'
      | 'recurrence'
      | 'repeatUntil'
      | 'createdByLabel'
    > &
      QuietTarget,
  ): Promise<Downtime> {
    const rows: Downtime[] = await tx.query(
      `INSERT INTO ${DT} (id, tenant_id, scope, monitor_id, detector, subject_type, subject_id, reason, starts_at,
         duration_minutes, recurrence, repeat_until, created_by_label)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${DOWNTIME_COLUMNS}`,
      [
        downtime.id,
        tenantId,
        ...targetParams(downtime),
        downtime.reason,
        downtime.startsAt,
        downtime.durationMinutes,
        downtime.recurrence,
        downtime.repeatUntil,
        downtime.createdByLabel,
      ],
    );
    return rows[0];
  }

  async findDowntime(tx: Tx, tenantId: string, id: string): Promise<Downtime | undefined> {
    const rows: Downtime[] = await tx.query(
      `SELECT ${DOWNTIME_COLUMNS} FROM ${DT} WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
      [tenantId, id],
    );
    return rows[0];
  }

  async cancelDowntime(
    tx: Tx,
    tenantId: string,
    id: string,
    at: Date,
    label: string,
  ): Promise<Downtime> {
    const result: unknown = await tx.query(
      `UPDATE ${DT} SET cancelled_at = $3, cancelled_by_label = $4, updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING ${DOWNTIME_COLUMNS}`,
      [tenantId, id, at, label],
    );
    return rowsOf<Downtime>(result)[0];
  }

  async listDowntimes(
    tx: Tx,
    tenantId: string,
    includeCancelled: boolean,
    limit: number,
    offset: number,
  ): Promise<{ items: Downtime[]; total: number }> {
    const where = `tenant_id = $1 AND ($2 OR cancelled_at IS NULL)`;
    const items: Downtime[] = await tx.query(
      `SELECT ${DOWNTIME_COLUMNS} FROM ${DT} WHERE ${where} ORDER BY starts_at DESC, id LIMIT $3 OFFSET $4`,
      [tenantId, includeCancelled, limit, offset],
    );
    const [count] = await tx.query<Array<{ n: string }>>(
      `SELECT count(*) AS n FROM ${DT} WHERE ${where}`,
      [tenantId, includeCancelled],
    );
    return { items, total: Number(count?.n ?? 0) };
  }

  /** M25: tenants with a mute that ran out by `at` and whose end is not recorded yet (system scope). */
  async tenantsWithExpiredMutes(tx: Tx, at: Date): Promise<string[]> {
    const rows: Array<{ tenantId: string }> = await tx.query(
      `SELECT DISTINCT tenant_id AS "tenantId" FROM ${MU}
       WHERE unmuted_at IS NULL AND expiry_recorded_at IS NULL AND ends_at IS NOT NULL AND ends_at <= $1`,
      [at],
    );
    return rows.map((row) => row.tenantId);
  }

  /** M25: marks the tenant's mutes that ran out by `at` as recorded and returns them. */
  async claimExpiredMutes(tx: Tx, tenantId: string, at: Date): Promise<Mute[]> {
    const result: unknown = await tx.query(
      `UPDATE ${MU} SET expiry_recorded_at = now(), updated_at = now()
       WHERE tenant_id = $1 AND unmuted_at IS NULL AND expiry_recorded_at IS NULL
         AND ends_at IS NOT NULL AND ends_at <= $2
       RETURNING ${MUTE_COLUMNS}`,
      [tenantId, at],
    );
    return rowsOf<Mute>(result);
  }

  /** What a tick needs: mutes not ended by `at` and downtimes not cancelled (M22). */
  async inForce(
    tx: Tx,
    tenantId: string,
    at: Date,
  ): Promise<{ mutes: Mute[]; downtimes: Downtime[] }> {
    const mutes: Mute[] = await tx.query(
      `SELECT ${MUTE_COLUMNS} FROM ${MU} WHERE tenant_id = $1 AND unmuted_at IS NULL
         AND starts_at <= $2 AND (ends_at IS NULL OR ends_at > $2)`,
      [tenantId, at],
    );
    const downtimes: Downtime[] = await tx.query(
      `SELECT ${DOWNTIME_COLUMNS} FROM ${DT} WHERE tenant_id = $1 AND cancelled_at IS NULL AND starts_at <= $2
         AND (repeat_until IS NULL OR repeat_until > $2 - make_interval(mins => duration_minutes))`,
      [tenantId, at],
    );
    return { mutes, downtimes };
  }
}

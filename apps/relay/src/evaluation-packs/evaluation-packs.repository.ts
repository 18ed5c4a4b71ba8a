import { Injectable } from '@nestjs/common';
import { ExecutionMode } from '@agp/contracts';
import { iso, Row, str, Tx } from '@agp/database';

import { EndpointReference, Evaluation, Hop, LiveDouble } from './evaluation-pack.types';

export interface PackRow {
  id: string;
  name: string;
  description?: string;
  ownerUserId: string;
  ownerLabel?: string;
  enabled: boolean;
  schedule?: string;
  nextRunAt?: string;
  alertOnFailure: boolean;
  /** G19: the sandbox doubles of its LIVE runs. */
  liveDoubles: LiveDouble[];
  /** G22: how its SCHEDULE runs execute. */
  scheduleExecutionMode: ExecutionMode;
  lastRunId?: string;
  createdAt: string;
  updatedAt: string;
}

/** A scheduled pack whose run is due (G13). */
export interface DuePack {
  id: string;
  tenantId: string;
  name: string;
  schedule: string;
  executionMode: ExecutionMode;
}

export type NewEvaluation = Omit<Evaluation, 'createdAt' | 'updatedAt'>;

const PACK_COLUMNS = `p.id, p.name, p.description, p.owner_user_id, coalesce(u.display_name, u.email, p.owner_label) AS owner_label,
  p.enabled, p.schedule, p.next_run_at, p.alert_on_failure, p.live_doubles, p.schedule_execution_mode, p.last_run_id, p.created_at, p.updated_at`;
const PACK_FROM = `relay.evaluation_packs p
  LEFT JOIN relay.users u ON u.id = p.owner_user_id AND u.status <> 'DELETED'`;

/** Every query on evaluation packs and their evaluations; each takes the tenant id (D4). */
@Injectable()
export class EvaluationPacksRepository {
  async insertPack(
    tx: Tx,
    tenantId: string,
    pack: Omit<PackRow, 'createdAt' | 'updatedAt' | 'lastRunId'>,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO relay.evaluation_packs (id, tenant_id, name, description, owner_user_id, owner_label, enabled,
         schedule, next_run_at, alert_on_failure, live_doubles, schedule_execution_mode)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        pack.id,
        tenantId,
        pack.name,
        pack.description ?? null,
        pack.ownerUserId,
        pack.ownerLabel ?? null,
        pack.enabled,
        pack.schedule ?? null,
        pack.nextRunAt ?? null,
        pack.alertOnFailure,
        JSON.stringify(pack.liveDoubles),
        pack.scheduleExecutionMode,
      ],
    );
  }

  async updatePack(
    tx: Tx,
    tenantId: string,
    id: string,
    // An absent or null field keeps its value (coalesce).
    changes: {
      name?: string;
      description?: string | null;
      ownerUserId?: string;
      ownerLabel?: string;
      enabled?: boolean | null;
      alertOnFailure?: boolean | null;
      liveDoubles?: LiveDouble[] | null;
      scheduleExecutionMode?: ExecutionMode | null;
    },
  ): Promise<void> {
    await tx.query(
      `UPDATE relay.evaluation_packs SET name = coalesce($3, name), description = coalesce($4, description),
         owner_user_id = coalesce($5, owner_user_id), owner_label = CASE WHEN $5::uuid IS NULL THEN owner_label ELSE $6 END,
         enabled = coalesce($7, enabled), alert_on_failure = coalesce($8, alert_on_failure),
         live_doubles = coalesce($9::jsonb, live_doubles),
         schedule_execution_mode = coalesce($10, schedule_execution_mode), updated_at = now()
       WHERE tenant_id = $1 AND id = $2`,
      [
        tenantId,
        id,
        changes.name ?? null,
        changes.description ?? null,
        changes.ownerUserId ?? null,
        changes.ownerLabel ?? null,
        changes.enabled ?? null,
        changes.alertOnFailure ?? null,
        changes.liveDoubles ? JSON.stringify(changes.liveDoubles) : null,
        changes.scheduleExecutionMode ?? null,
      ],
    );
  }

  /** G13: the schedule and when it is next due (both null: not scheduled). */
  async setSchedule(
    tx: Tx,
    tenantId: string,
    id: string,
    schedule: string | null,
    nextRunAt: Date | null,
  ): Promise<void> {
    await tx.query(
      `UPDATE relay.evaluation_packs SET schedule = $3, next_run_at = $4 WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, schedule, nextRunAt],
    );
  }

  /** G13, system scope: enabled scheduled packs due by `now`, locked so one replica runs each. */
  async claimDue(tx: Tx, now: Date, limit: number): Promise<DuePack[]> {
    const rows: Row[] = await tx.query(
      `SELECT id, tenant_id, name, schedule, schedule_execution_mode FROM relay.evaluation_packs
        WHERE schedule IS NOT NULL AND enabled AND next_run_at <= $1
        ORDER BY next_run_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, limit],
    );
    return rows.map((row) => ({
      id: String(row.id),
      tenantId: String(row.tenant_id),
      name: String(row.name),
      schedule: str(row.schedule)!,
      executionMode: String(row.schedule_execution_mode) as ExecutionMode,
    }));
  }

  /** G19: the pack's sandbox doubles (none for a deleted pack). */
  async liveDoubles(tx: Tx, tenantId: string, id: string): Promise<LiveDouble[]> {
    const rows: Row[] = await tx.query(
      `SELECT live_doubles FROM relay.evaluation_packs WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return (rows[0]?.live_doubles ?? []) as LiveDouble[];
  }

  /** G14: whether a failing run of the pack raises an alert (false for a deleted pack). */
  async alertsOnFailure(tx: Tx, tenantId: string, id: string): Promise<boolean> {
    const rows: Row[] = await tx.query(
      `SELECT alert_on_failure FROM relay.evaluation_packs WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0]?.alert_on_failure === true;
  }

  async deletePack(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM relay.evaluation_packs WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
  }

  async findPack(tx: Tx, tenantId: string, id: string): Promise<PackRow | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT ${PACK_COLUMNS} FROM ${PACK_FROM} WHERE p.tenant_id = $1 AND p.id = $2`,
      [tenantId, id],
    );
    return rows[0] ? toPack(rows[0]) : undefined;
  }

  async listPacks(
    tx: Tx,
    tenantId: string,
    filter: { name?: string; enabled?: boolean },
    limit: number,
    offset: number,
  ): Promise<{ items: PackRow[]; total: number }> {
    const where = `p.tenant_id = $1 AND ($2::text IS NULL OR p.name ILIKE '%' || $2 || '%') AND ($3::boolean IS NULL OR p.enabled = $3)`;
    const params = [tenantId, filter.name ?? null, filter.enabled ?? null];
    const rows: Row[] = await tx.query(
      `SELECT ${PACK_COLUMNS} FROM ${PACK_FROM} WHERE ${where} ORDER BY p.name LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM relay.evaluation_packs p WHERE ${where}`,
      params,
    );
    return { items: rows.map(toPack), total: Number(count?.n ?? 0) };
  }

  async setLastRun(tx: Tx, tenantId: string, packId: string, runId: string): Promise<void> {
    await tx.query(
      `UPDATE relay.evaluation_packs SET last_run_id = $3 WHERE tenant_id = $1 AND id = $2`,
      [tenantId, packId, runId],
    );
  }

  /** R13: the group id is a UUID, so a text search is exact. */
  async enabledPacksTouchingGroup(tx: Tx, tenantId: string, groupId: string): Promise<PackRow[]> {
    const rows: Row[] = await tx.query(
      `SELECT ${PACK_COLUMNS} FROM ${PACK_FROM}
       WHERE p.tenant_id = $1 AND p.enabled
         AND (EXISTS (SELECT 1 FROM relay.evaluations e WHERE e.pack_id = p.id AND e.enabled AND e.hops::text LIKE '%' || $2 || '%')
           OR EXISTS (SELECT 1 FROM relay.evaluation_runs r WHERE r.id = p.last_run_id AND r.results::text LIKE '%' || $2 || '%'))`,
      [tenantId, groupId],
    );
    return rows.map(toPack);
  }

  async insertEvaluation(tx: Tx, tenantId: string, e: NewEvaluation): Promise<void> {
    await tx.query(
      `INSERT INTO relay.evaluations (id, tenant_id, pack_id, name, description, source, target, input, hops, enabled)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        e.id,
        tenantId,
        e.packId,
        e.name,
        e.description ?? null,
        JSON.stringify(e.source),
        JSON.stringify(e.target),
        e.input,
        JSON.stringify(e.hops),
        e.enabled,
      ],
    );
  }

  async updateEvaluation(tx: Tx, tenantId: string, e: NewEvaluation): Promise<void> {
    await tx.query(
      `UPDATE relay.evaluations SET name = $3, description = $4, source = $5, target = $6, input = $7, hops = $8, enabled = $9, updated_at = now()
       WHERE tenant_id = $1 AND id = $2`,
      [
        tenantId,
        e.id,
        e.name,
        e.description ?? null,
        JSON.stringify(e.source),
        JSON.stringify(e.target),
        e.input,
        JSON.stringify(e.hops),
        e.enabled,
      ],
    );
  }

  async deleteEvaluation(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM relay.evaluations WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
  }

  async findEvaluation(
    tx: Tx,
    tenantId: string,
    packId: string,
    id: string,
  ): Promise<Evaluation | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM relay.evaluations WHERE tenant_id = $1 AND pack_id = $2 AND id = $3`,
      [tenantId, packId, id],
    );
    return rows[0] ? toEvaluation(rows[0]) : undefined;
  }

  async listEvaluations(
    tx: Tx,
    tenantId: string,
    packIds: string[],
    limit = 10_000,
    offset = 0,
  ): Promise<Evaluation[]> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM relay.evaluations WHERE tenant_id = $1 AND pack_id = ANY($2::uuid[]) ORDER BY created_at, id LIMIT $3 OFFSET $4`,
      [tenantId, packIds, limit, offset],
    );
    return rows.map(toEvaluation);
  }

  async countEvaluations(tx: Tx, tenantId: string, packId: string): Promise<number> {
    const [row] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM relay.evaluations WHERE tenant_id = $1 AND pack_id = $2`,
      [tenantId, packId],
    );
    return Number(row?.n ?? 0);
  }
}

function toPack(row: Row): PackRow {
  return {
    id: String(row.id),
    name: String(row.name),
    description: str(row.description),
    ownerUserId: String(row.owner_user_id),
    ownerLabel: str(row.owner_label),
    enabled: row.enabled === true,
    ...(typeof row.schedule === 'string' ? { schedule: row.schedule } : {}),
    ...(row.next_run_at ? { nextRunAt: iso(row.next_run_at) } : {}),
    alertOnFailure: row.alert_on_failure === true,
    liveDoubles: (row.live_doubles ?? []) as LiveDouble[],
    scheduleExecutionMode: (str(row.schedule_execution_mode) ?? 'SIMULATED') as ExecutionMode,
    lastRunId: str(row.last_run_id),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

function toEvaluation(row: Row): Evaluation {
  return {
    id: String(row.id),
    packId: String(row.pack_id),
    name: String(row.name),
    description: str(row.description),
    source: row.source as EndpointReference,
    target: row.target as EndpointReference,
    input: String(row.input),
    hops: row.hops as Hop[],
    enabled: row.enabled === true,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

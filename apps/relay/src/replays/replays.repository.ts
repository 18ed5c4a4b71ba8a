import { Injectable } from '@nestjs/common';
import { iso, returning, Row, str, Tx } from '@agp/database';

import { Replay, ReplayFilters, ReplayPlacement, ReplayStatus } from './replay.types';

const S = 'relay';

export interface NewReplay {
  id: string;
  groupId: string;
  versionId: string;
  version: string;
  bindingId?: string;
  from: Date;
  to: Date;
  filters: ReplayFilters;
  placement: ReplayPlacement;
  requestedBy?: { id: string; name?: string };
}

export interface ClaimedReplay extends Replay {
  tenantId: string;
}

/** Progress after one page: added to the counts, the cursor moved, the lease renewed. */
export interface ReplayProgress {
  scanned: number;
  judged: number;
  unreplayable: number;
  cursor?: { at: string; id: string };
}

const COLUMNS = `id, tenant_id, group_id, version_id, version, binding_id, window_from, window_to, filters, placement,
  status, requested_by, cursor_at, cursor_id, scanned, judged, unreplayable, error_message, created_at, started_at, finished_at`;

/** Replays of recorded hops (D49, governance.md G10, G11); each read takes the tenant id. */
@Injectable()
export class ReplaysRepository {
  async insert(tx: Tx, tenantId: string, r: NewReplay): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.policy_replays (id, tenant_id, group_id, version_id, version, binding_id, window_from, window_to,
         filters, placement, requested_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        r.id,
        tenantId,
        r.groupId,
        r.versionId,
        r.version,
        r.bindingId ?? null,
        r.from,
        r.to,
        JSON.stringify(r.filters),
        JSON.stringify(r.placement),
        r.requestedBy ? JSON.stringify(r.requestedBy) : null,
      ],
    );
  }

  async find(
    tx: Tx,
    tenantId: string,
    groupId: string,
    version: string,
    id: string,
  ): Promise<Replay | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT ${COLUMNS} FROM ${S}.policy_replays WHERE tenant_id = $1 AND group_id = $2 AND version = $3 AND id = $4`,
      [tenantId, groupId, version, id],
    );
    return rows[0] ? toReplay(rows[0]) : undefined;
  }

  /** F30: a RUNNING one whose lease ran out is taken too; `SKIP LOCKED` keeps replicas apart. */
  async claim(tx: Tx, leaseMs: number): Promise<ClaimedReplay | undefined> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.policy_replays SET status = 'RUNNING', started_at = coalesce(started_at, now()),
         lease_until = now() + make_interval(secs => $1 / 1000.0)
       WHERE id = (SELECT id FROM ${S}.policy_replays
         WHERE status = 'PENDING' OR (status = 'RUNNING' AND lease_until < now())
         ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
       RETURNING ${COLUMNS}`,
      [leaseMs],
    );
    return rows[0] ? { ...toReplay(rows[0]), tenantId: String(rows[0].tenant_id) } : undefined;
  }

  /** A page's progress, only while the replay still runs; false when it was cancelled. */
  async advance(
    tx: Tx,
    tenantId: string,
    id: string,
    progress: ReplayProgress,
    leaseMs: number,
  ): Promise<boolean> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.policy_replays SET scanned = scanned + $3, judged = judged + $4, unreplayable = unreplayable + $5,
         cursor_at = coalesce($6::timestamptz, cursor_at), cursor_id = coalesce($7::uuid, cursor_id),
         lease_until = now() + make_interval(secs => $8 / 1000.0)
       WHERE tenant_id = $1 AND id = $2 AND status = 'RUNNING' RETURNING id`,
      [
        tenantId,
        id,
        progress.scanned,
        progress.judged,
        progress.unreplayable,
        progress.cursor?.at ?? null,
        progress.cursor?.id ?? null,
        leaseMs,
      ],
    );
    return rows.length > 0;
  }

  async finish(
    tx: Tx,
    tenantId: string,
    id: string,
    status: Extract<ReplayStatus, 'COMPLETED' | 'FAILED'>,
    errorMessage?: string,
  ): Promise<void> {
    await tx.query(
      `UPDATE ${S}.policy_replays SET status = $3, error_message = $4, finished_at = now(), lease_until = NULL
       WHERE tenant_id = $1 AND id = $2 AND status = 'RUNNING'`,
      [tenantId, id, status, errorMessage ?? null],
    );
  }

  /** CANCELLED when still PENDING or RUNNING; the stored status otherwise. */
  async cancel(tx: Tx, tenantId: string, id: string): Promise<boolean> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.policy_replays SET status = 'CANCELLED', finished_at = now(), lease_until = NULL
       WHERE tenant_id = $1 AND id = $2 AND status IN ('PENDING', 'RUNNING') RETURNING id`,
      [tenantId, id],
    );
    return rows.length > 0;
  }

  /** Finished replays (their samples cascade) older than `before` (governance.md G11). */
  async prune(tx: Tx, before: Date): Promise<number> {
    const rows: Row[] = await tx.query(
      `WITH gone AS (DELETE FROM ${S}.policy_replays WHERE finished_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      [before],
    );
    return Number(rows[0]?.n ?? 0);
  }
}

function toReplay(row: Row): Replay {
  return {
    replayId: String(row.id),
    groupId: String(row.group_id),
    version: String(row.version),
    versionId: String(row.version_id),
    bindingId: str(row.binding_id),
    from: iso(row.window_from)!,
    to: iso(row.window_to)!,
    filters: row.filters ?? {},
    placement: row.placement as ReplayPlacement,
    status: String(row.status) as ReplayStatus,
    scanned: Number(row.scanned),
    judged: Number(row.judged),
    unreplayable: Number(row.unreplayable),
    cursorAt: iso(row.cursor_at),
    cursorId: str(row.cursor_id),
    errorMessage: str(row.error_message),
    requestedBy: (row.requested_by ?? undefined) as Replay['requestedBy'],
    createdAt: iso(row.created_at)!,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
  };
}

import { Injectable } from '@nestjs/common';
import { ExecutionMode, RunStatus, TriggerSource } from '@agp/contracts';
import { iso, returning, Row, str, Tx } from '@agp/database';

import { EvaluationVerdict, EvaluationRun } from './evaluation-pack.types';

export interface NewRun {
  id: string;
  packId: string;
  packName: string;
  triggerSource: TriggerSource;
  triggeredBy?: { id: string; name: string };
  executionMode: ExecutionMode;
}

export interface ClaimedRun {
  runId: string;
  tenantId: string;
  packId: string;
  executionMode: ExecutionMode;
  /** G20: taken over from a replica that stopped while running it. */
  isResumed: boolean;
}

export interface RunOutcome {
  status: Extract<RunStatus, 'COMPLETED' | 'FAILED'>;
  evaluationCount: number;
  passed: number;
  failed: number;
  skipped: number;
  durationMs: number;
  errorMessage?: string;
  results: EvaluationVerdict[];
}

const SUMMARY = `id, tenant_id, pack_id, pack_name, status, trigger_source, triggered_by, execution_mode, evaluation_count, passed,
  failed, skipped, duration_ms, error_message, created_at, started_at, finished_at`;

/** Runs of evaluation packs (D15, D27). */
@Injectable()
export class EvaluationRunsRepository {
  async insert(tx: Tx, tenantId: string, run: NewRun): Promise<void> {
    await tx.query(
      `INSERT INTO relay.evaluation_runs (id, tenant_id, pack_id, pack_name, status, trigger_source, triggered_by, execution_mode)
       VALUES ($1, $2, $3, $4, 'PENDING', $5, $6, $7)`,
      [
        run.id,
        tenantId,
        run.packId,
        run.packName,
        run.triggerSource,
        run.triggeredBy ? JSON.stringify(run.triggeredBy) : null,
        run.executionMode,
      ],
    );
  }

  async find(
    tx: Tx,
    tenantId: string,
    packId: string,
    runId: string,
  ): Promise<EvaluationRun | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT ${SUMMARY}, results FROM relay.evaluation_runs WHERE tenant_id = $1 AND pack_id = $2 AND id = $3`,
      [tenantId, packId, runId],
    );
    return rows[0]
      ? { ...toRun(rows[0]), results: rows[0].results as EvaluationVerdict[] }
      : undefined;
  }

  async findSummaries(tx: Tx, tenantId: string, runIds: string[]): Promise<EvaluationRun[]> {
    const rows: Row[] = await tx.query(
      `SELECT ${SUMMARY} FROM relay.evaluation_runs WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, runIds],
    );
    return rows.map(toRun);
  }

  async list(
    tx: Tx,
    tenantId: string,
    packId: string,
    limit: number,
    offset: number,
  ): Promise<{ items: EvaluationRun[]; total: number }> {
    const rows: Row[] = await tx.query(
      `SELECT ${SUMMARY} FROM relay.evaluation_runs WHERE tenant_id = $1 AND pack_id = $2 ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
      [tenantId, packId, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM relay.evaluation_runs WHERE tenant_id = $1 AND pack_id = $2`,
      [tenantId, packId],
    );
    return { items: rows.map(toRun), total: Number(count?.n ?? 0) };
  }

  /**
   * System scope; a RUNNING run past `staleAfter` is taken too (its replica stopped), marked
   * `isResumed` (G20: a LIVE one is not sent again).
   */
  async claimPending(tx: Tx, staleAfter = '10 minutes'): Promise<ClaimedRun | undefined> {
    const rows = await returning(
      tx,
      `WITH picked AS (
         SELECT id, status AS was FROM relay.evaluation_runs
          WHERE status = 'PENDING'
             OR (status = 'RUNNING' AND coalesce(heartbeat_at, started_at) < now() - $1::interval)
          ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
       UPDATE relay.evaluation_runs r SET status = 'RUNNING', started_at = now(), heartbeat_at = NULL
         FROM picked WHERE r.id = picked.id
       RETURNING r.id, r.tenant_id, r.pack_id, r.execution_mode, picked.was`,
      [staleAfter],
    );
    const row = rows[0];
    return row
      ? {
          runId: String(row.id),
          tenantId: String(row.tenant_id),
          packId: String(row.pack_id),
          executionMode: String(row.execution_mode) as ExecutionMode,
          isResumed: row.was === 'RUNNING',
        }
      : undefined;
  }

  /** G21: PENDING or RUNNING → CANCELED; undefined when the run had already finished. */
  async cancel(tx: Tx, tenantId: string, packId: string, runId: string): Promise<boolean> {
    const rows = await returning(
      tx,
      `UPDATE relay.evaluation_runs SET status = 'CANCELED', finished_at = now(),
         error_message = 'canceled', duration_ms = CASE WHEN started_at IS NULL THEN NULL
           ELSE (extract(epoch FROM now() - started_at) * 1000)::int END
        WHERE tenant_id = $1 AND pack_id = $2 AND id = $3 AND status IN ('PENDING', 'RUNNING')
        RETURNING id`,
      [tenantId, packId, runId],
    );
    return rows.length > 0;
  }

  /** G20, G21: whether the run was canceled; `beat` also says it is still running here. */
  async isCanceled(tx: Tx, tenantId: string, runId: string, beat = false): Promise<boolean> {
    const rows: Row[] = beat
      ? await returning(
          tx,
          `UPDATE relay.evaluation_runs SET heartbeat_at = CASE WHEN status = 'RUNNING' THEN now() ELSE heartbeat_at END
            WHERE tenant_id = $1 AND id = $2 RETURNING status`,
          [tenantId, runId],
        )
      : await tx.query(
          `SELECT status FROM relay.evaluation_runs WHERE tenant_id = $1 AND id = $2`,
          [tenantId, runId],
        );
    return rows[0]?.status === 'CANCELED';
  }

  /** False when the run is no longer RUNNING (G21: canceled meanwhile): nothing changes. */
  async finish(tx: Tx, tenantId: string, runId: string, outcome: RunOutcome): Promise<boolean> {
    const rows = await returning(
      tx,
      `UPDATE relay.evaluation_runs SET status = $3, evaluation_count = $4, passed = $5, failed = $6, skipped = $7, duration_ms = $8,
         error_message = $9, results = $10, finished_at = now()
       WHERE tenant_id = $1 AND id = $2 AND status = 'RUNNING' RETURNING id`,
      [
        tenantId,
        runId,
        outcome.status,
        outcome.evaluationCount,
        outcome.passed,
        outcome.failed,
        outcome.skipped,
        outcome.durationMs,
        outcome.errorMessage ?? null,
        JSON.stringify(outcome.results),
      ],
    );
    return rows.length > 0;
  }
}

function toRun(row: Row): EvaluationRun {
  return {
    runId: String(row.id),
    packId: String(row.pack_id),
    packName: String(row.pack_name),
    status: String(row.status) as RunStatus,
    triggeredBy: (row.triggered_by ?? undefined) as EvaluationRun['triggeredBy'],
    triggerSource: String(row.trigger_source) as TriggerSource,
    evaluationCount: Number(row.evaluation_count),
    passed: Number(row.passed),
    failed: Number(row.failed),
    skipped: Number(row.skipped),
    durationMs: row.duration_ms === null ? undefined : Number(row.duration_ms),
    createdAt: iso(row.created_at)!,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    errorMessage: str(row.error_message),
    executionMode: String(row.execution_mode) as EvaluationRun['executionMode'],
  };
}

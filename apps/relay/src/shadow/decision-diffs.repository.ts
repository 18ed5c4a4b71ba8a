import { Injectable } from '@nestjs/common';
import { Action } from '@agp/contracts';
import { iso, Row, Tx } from '@agp/database';

import { DecisionSide } from '../decisions/candidate-placement';
import { DecisionDiffCount, DecisionDiffSample, DiffHop } from './decision-diffs';

const S = 'relay';

/** Where compared hops are kept: a shadow binding's live hops, or a replay's re-judged ones. */
export type DiffSource =
  { kind: 'SHADOW'; bindingId: string } | { kind: 'REPLAY'; replayId: string };

export interface StoredDiff {
  hopId: string;
  hopAt: string;
  hop: DiffHop;
  enforced: DecisionSide;
  shadow: DecisionSide;
}

function where(source: DiffSource): { table: string; owner: string; id: string } {
  return source.kind === 'SHADOW'
    ? { table: `${S}.shadow_decisions`, owner: 'binding_id', id: source.bindingId }
    : { table: `${S}.policy_replay_samples`, owner: 'replay_id', id: source.replayId };
}

/** The queries the shadow report and a replay's result share (governance.md G8, G10). */
@Injectable()
export class DecisionDiffsRepository {
  /** A shadow binding's judgement of one hop; a redelivered event (same id) adds nothing. */
  async insertShadow(tx: Tx, tenantId: string, id: string, bindingId: string, diff: StoredDiff) {
    await tx.query(
      `INSERT INTO ${S}.shadow_decisions (id, tenant_id, binding_id, hop_id, hop_at, enforced_action, shadow_action, hop, enforced, shadow)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
      [id, tenantId, bindingId, ...columns(diff)],
    );
  }

  /** A replay's re-judged hops, one statement per page; a page judged again adds nothing. */
  async insertReplayed(tx: Tx, tenantId: string, replayId: string, diffs: StoredDiff[]) {
    if (diffs.length === 0) {
      return;
    }
    await tx.query(
      `INSERT INTO ${S}.policy_replay_samples (replay_id, tenant_id, hop_id, hop_at, enforced_action, shadow_action, hop, enforced, shadow)
       SELECT $1, $2, d.hop_id, d.hop_at, d.enforced_action, d.shadow_action, d.hop, d.enforced, d.shadow
       FROM jsonb_to_recordset($3::jsonb) AS d(hop_id uuid, hop_at timestamptz, enforced_action text,
         shadow_action text, hop jsonb, enforced jsonb, shadow jsonb)
       ON CONFLICT (replay_id, hop_id) DO NOTHING`,
      [
        replayId,
        tenantId,
        JSON.stringify(
          diffs.map((d) => ({
            hop_id: d.hopId,
            hop_at: d.hopAt,
            enforced_action: d.enforced.action,
            shadow_action: d.shadow.action,
            hop: d.hop,
            enforced: d.enforced,
            shadow: d.shadow,
          })),
        ),
      ],
    );
  }

  async counts(
    tx: Tx,
    tenantId: string,
    source: DiffSource,
    from: Date,
    to: Date,
  ): Promise<DecisionDiffCount[]> {
    const { table, owner, id } = where(source);
    const rows: Row[] = await tx.query(
      `SELECT enforced_action, shadow_action, count(*)::int AS n FROM ${table}
       WHERE tenant_id = $1 AND ${owner} = $2 AND hop_at >= $3 AND hop_at < $4
       GROUP BY enforced_action, shadow_action ORDER BY enforced_action, shadow_action`,
      [tenantId, id, from, to],
    );
    return rows.map((r) => ({
      enforcedAction: String(r.enforced_action) as Action,
      shadowAction: String(r.shadow_action) as Action,
      count: Number(r.n),
    }));
  }

  async changed(
    tx: Tx,
    tenantId: string,
    source: DiffSource,
    window: { from: Date; to: Date },
    limit: number,
    offset: number,
  ): Promise<DecisionDiffSample[]> {
    const { table, owner, id } = where(source);
    const rows: Row[] = await tx.query(
      `SELECT hop_id, hop_at, hop, enforced, shadow FROM ${table}
       WHERE tenant_id = $1 AND ${owner} = $2 AND hop_at >= $3 AND hop_at < $4
         AND enforced_action <> shadow_action
       ORDER BY hop_at, hop_id LIMIT $5 OFFSET $6`,
      [tenantId, id, window.from, window.to, limit, offset],
    );
    return rows.map((r) => ({
      hopId: String(r.hop_id),
      at: iso(r.hop_at)!,
      hop: r.hop as DiffHop,
      enforced: r.enforced as DecisionSide,
      shadow: r.shadow as DecisionSide,
    }));
  }

  /** Rows of either kind recorded before `before` (retention, governance.md G11). */
  async pruneShadow(tx: Tx, before: Date): Promise<number> {
    const rows: Row[] = await tx.query(
      `WITH gone AS (DELETE FROM ${S}.shadow_decisions WHERE recorded_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      [before],
    );
    return Number(rows[0]?.n ?? 0);
  }
}

function columns(d: StoredDiff): unknown[] {
  return [
    d.hopId,
    d.hopAt,
    d.enforced.action,
    d.shadow.action,
    JSON.stringify(d.hop),
    JSON.stringify(d.enforced),
    JSON.stringify(d.shadow),
  ];
}

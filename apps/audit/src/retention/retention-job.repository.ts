import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { EventFamily } from '../events/event-families';

@Injectable()
export class RetentionJobRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {
    this.schema = database.schema;
  }

  async anchorSeq(tx: Tx, tenantId: string, family: EventFamily): Promise<number> {
    const rows: Array<{ seq: string }> = await tx.query(
      `SELECT seq FROM ${this.schema}.chain_anchors WHERE tenant_id = $1 AND family = $2`,
      [tenantId, family],
    );
    return rows[0] ? Number(rows[0].seq) : 0;
  }

  /** Removes a chain's prefix up to `seq` and anchors what remains at the checkpoint (A9). */
  async removeThrough(
    tx: Tx,
    tenantId: string,
    family: EventFamily,
    anchor: { seq: number; hash: string; checkpointId: string },
  ): Promise<RemovedEvents> {
    const rows: Array<{ removed: string; last: Date | null }> = await tx.query(
      `WITH removed AS (
         DELETE FROM ${this.schema}.events WHERE tenant_id = $1 AND family = $2 AND seq <= $3
         RETURNING occurred_at)
       SELECT count(*) AS removed, max(occurred_at) AS last FROM removed`,
      [tenantId, family, anchor.seq],
    );
    await tx.query(
      `INSERT INTO ${this.schema}.chain_anchors (tenant_id, family, seq, hash, checkpoint_id) VALUES ($1, $2, $3, decode($4, 'hex'), $5)
       ON CONFLICT (tenant_id, family) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash,
         checkpoint_id = EXCLUDED.checkpoint_id, anchored_at = now()`,
      [tenantId, family, anchor.seq, anchor.hash, anchor.checkpointId],
    );
    return { count: Number(rows[0]?.removed ?? 0), lastOccurredAt: rows[0]?.last ?? undefined };
  }

  /**
   * CV16: the conversation index loses the hops whose events retention removed (up to the last
   * removed event's time), a conversation with none left goes with its keys and parties, and the
   * others count and start from what remains. Under the indexer's lock for the tenant, so a hop
   * being indexed never joins a conversation as it is removed.
   */
  async pruneConversations(tx: Tx, tenantId: string, through: Date): Promise<PrunedConversations> {
    const s = this.schema;
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 44))`, [
      `conversations:${tenantId}`,
    ]);
    const touched: Array<{ conversation_id: string; hops: string }> = await tx.query(
      `WITH gone AS (
         DELETE FROM ${s}.conversation_hops h
         WHERE h.tenant_id = $1 AND h.occurred_at <= $2 AND NOT EXISTS (
           SELECT 1 FROM ${s}.events e
           WHERE e.tenant_id = $1 AND e.id = h.event_id AND e.occurred_at = h.occurred_at)
         RETURNING h.conversation_id)
       SELECT conversation_id, count(*) AS hops FROM gone GROUP BY conversation_id`,
      [tenantId, through],
    );
    if (touched.length === 0) {
      return { hops: 0, conversations: 0 };
    }
    const ids = touched.map((t) => t.conversation_id);
    const emptied: Array<{ id: string }> = await tx.query(
      `WITH emptied AS (
         DELETE FROM ${s}.conversations c
         WHERE c.tenant_id = $1 AND c.id = ANY($2::uuid[]) AND NOT EXISTS (
           SELECT 1 FROM ${s}.conversation_hops h WHERE h.tenant_id = $1 AND h.conversation_id = c.id)
         RETURNING c.id)
       SELECT id FROM emptied`,
      [tenantId, ids],
    );
    const removed = emptied.map((row) => row.id);
    for (const table of ['conversation_keys', 'conversation_parties']) {
      await tx.query(
        `DELETE FROM ${s}.${table} WHERE tenant_id = $1 AND conversation_id = ANY($2::uuid[])`,
        [tenantId, removed],
      );
    }
    await tx.query(
      `UPDATE ${s}.conversations c SET hop_count = r.hops, started_at = r.first
         FROM (SELECT conversation_id, count(*) AS hops, min(occurred_at) AS first
                 FROM ${s}.conversation_hops
                WHERE tenant_id = $1 AND conversation_id = ANY($2::uuid[])
                GROUP BY conversation_id) r
        WHERE c.tenant_id = $1 AND c.id = r.conversation_id`,
      [tenantId, ids],
    );
    await tx.query(
      `UPDATE ${s}.conversation_parties p SET started_at = c.started_at
         FROM ${s}.conversations c
        WHERE p.tenant_id = $1 AND p.conversation_id = ANY($2::uuid[])
          AND c.tenant_id = $1 AND c.id = p.conversation_id`,
      [tenantId, ids],
    );
    return {
      hops: touched.reduce((sum, t) => sum + Number(t.hops), 0),
      conversations: removed.length,
    };
  }
}

export interface RemovedEvents {
  count: number;
  /** The latest `occurred_at` among them. */
  lastOccurredAt?: Date;
}

export interface PrunedConversations {
  hops: number;
  /** Conversations removed because none of their hops remained. */
  conversations: number;
}

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { ConversationDelta, Grouping, mapKey } from './conversation-grouping';

/** conversations.md CV5: the index's writes, in the ingest's transaction (system scope). */
@Injectable()
export class ConversationIndexRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  /** CV5: one writer per tenant at a time, so two replicas never split one conversation. */
  async lockTenants(tx: Tx, tenantIds: string[]): Promise<void> {
    for (const tenantId of [...tenantIds].sort()) {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 44))`, [
        `conversations:${tenantId}`,
      ]);
    }
  }

  async knownKeys(tx: Tx, tenantIds: string[], keys: string[]): Promise<Map<string, string>> {
    const rows: Array<{ tenant_id: string; key: string; conversation_id: string }> = await tx.query(
      `SELECT tenant_id, key, conversation_id FROM ${this.schema}.conversation_keys
       WHERE tenant_id = ANY($1::uuid[]) AND key = ANY($2::text[])`,
      [tenantIds, keys],
    );
    return new Map(rows.map((r) => [mapKey(r.tenant_id, r.key), r.conversation_id]));
  }

  async save(tx: Tx, grouping: Grouping): Promise<void> {
    if (grouping.newKeys.length > 0) {
      await tx.query(
        `INSERT INTO ${this.schema}.conversation_keys (tenant_id, key, conversation_id)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[]) ON CONFLICT DO NOTHING`,
        [
          grouping.newKeys.map((k) => k.tenantId),
          grouping.newKeys.map((k) => k.key),
          grouping.newKeys.map((k) => k.conversationId),
        ],
      );
    }
    for (const delta of grouping.conversations) {
      await this.merge(tx, delta);
    }
    const hops = grouping.hops;
    await tx.query(
      `INSERT INTO ${this.schema}.conversation_hops (tenant_id, conversation_id, occurred_at, event_id, family)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::uuid[], $5::text[])
       ON CONFLICT DO NOTHING`,
      [
        hops.map((h) => h.tenantId),
        hops.map((h) => h.conversationId),
        hops.map((h) => h.occurredAt),
        hops.map((h) => h.eventId),
        hops.map((h) => h.family),
      ],
    );
  }

  private async merge(tx: Tx, d: ConversationDelta): Promise<void> {
    const ids = (type: string): string[] =>
      [...d.parties].filter((p) => p.startsWith(`${type}:`)).map((p) => p.slice(type.length + 1));
    // TypeORM answers an INSERT … RETURNING with its rows (an UPDATE with [rows, count]).
    const rows: Array<{ started_at: Date }> = await tx.query(
      `INSERT INTO ${this.schema}.conversations AS c (tenant_id, id, key_kind, key, started_at, last_at, hop_count,
         protocols, agent_ids, user_ids, channel_ids, mcp_server_ids, has_agent_hops, has_mcp_hops)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (tenant_id, id) DO UPDATE SET
         started_at = least(c.started_at, excluded.started_at),
         last_at = greatest(c.last_at, excluded.last_at),
         hop_count = c.hop_count + excluded.hop_count,
         protocols = ARRAY(SELECT DISTINCT unnest(c.protocols || excluded.protocols) ORDER BY 1),
         agent_ids = ARRAY(SELECT DISTINCT unnest(c.agent_ids || excluded.agent_ids) ORDER BY 1),
         user_ids = ARRAY(SELECT DISTINCT unnest(c.user_ids || excluded.user_ids) ORDER BY 1),
         channel_ids = ARRAY(SELECT DISTINCT unnest(c.channel_ids || excluded.channel_ids) ORDER BY 1),
         mcp_server_ids = ARRAY(SELECT DISTINCT unnest(c.mcp_server_ids || excluded.mcp_server_ids) ORDER BY 1),
         has_agent_hops = c.has_agent_hops OR excluded.has_agent_hops,
         has_mcp_hops = c.has_mcp_hops OR excluded.has_mcp_hops
       RETURNING started_at`,
      [
        d.tenantId,
        d.id,
        d.keyKind,
        d.key,
        d.startedAt,
        d.lastAt,
        d.hopCount,
        [...d.protocols].sort(),
        ids('AGENT').sort(),
        ids('USER').sort(),
        ids('CHANNEL').sort(),
        ids('MCP_SERVER').sort(),
        d.families.has('AGENT'),
        d.families.has('MCP'),
      ],
    );
    const parties = [...d.parties];
    await tx.query(
      `INSERT INTO ${this.schema}.conversation_parties (tenant_id, party, conversation_id, started_at)
       SELECT $1, p, $2, $3 FROM unnest($4::text[]) AS p
       ON CONFLICT (tenant_id, party, conversation_id) DO UPDATE SET started_at = excluded.started_at`,
      [d.tenantId, d.id, rows[0].started_at, parties],
    );
  }
}

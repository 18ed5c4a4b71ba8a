import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx, queryNamed } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { ConversationDelta, Grouping, mapKey } from './conversation-grouping';

/** conversations.md CV5: the index's writes, in the ingest's transaction (system scope). */
@Injectable()
export class ConversationIndexRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  /**
   * CV5: one writer per tenant at a time, so two replicas never split one conversation: the
   * tenants' locks are taken in the array's (sorted) order, then the stored keys among `keys` are
   * read under them. A56: one call of a function (its statements each see what committed before
   * them), where a lock's statement and the read were two.
   */
  async lockAndReadKeys(tx: Tx, tenantIds: string[], keys: string[]): Promise<Map<string, string>> {
    const rows: Array<{ tenant_id: string; key: string; conversation_id: string }> =
      await queryNamed(
        tx,
        `SELECT tenant_id, key, conversation_id FROM ${this.schema}.locked_conversation_keys($1::text[], $2::uuid[], $3::text[])`,
        [[...tenantIds].sort().map((tenantId) => `conversations:${tenantId}`), tenantIds, keys],
      );
    return new Map(rows.map((r) => [mapKey(r.tenant_id, r.key), r.conversation_id]));
  }

  /**
   * A31: the whole batch in one statement, whatever its number of conversations: the new keys,
   * each conversation merged into its stored row, its parties with the merged start, its hops.
   */
  async save(tx: Tx, grouping: Grouping): Promise<void> {
    const { newKeys, hops } = grouping;
    await queryNamed(
      tx,
      `WITH new_keys AS (
         INSERT INTO ${this.schema}.conversation_keys (tenant_id, key, conversation_id)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[]) ON CONFLICT DO NOTHING
       ), deltas AS (
         SELECT * FROM jsonb_to_recordset($4::jsonb) AS d(tenant_id uuid, id uuid, key_kind text, key text,
           started_at timestamptz, last_at timestamptz, hop_count integer, protocols text[], agent_ids text[],
           user_ids text[], channel_ids text[], mcp_server_ids text[], has_agent_hops boolean,
           has_mcp_hops boolean, parties text[])
       ), merged AS (
         INSERT INTO ${this.schema}.conversations AS c (tenant_id, id, key_kind, key, started_at, last_at, hop_count,
           protocols, agent_ids, user_ids, channel_ids, mcp_server_ids, has_agent_hops, has_mcp_hops)
         SELECT tenant_id, id, key_kind, key, started_at, last_at, hop_count, protocols, agent_ids, user_ids,
           channel_ids, mcp_server_ids, has_agent_hops, has_mcp_hops FROM deltas
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
         RETURNING c.tenant_id, c.id, c.started_at
       ), parties AS (
         INSERT INTO ${this.schema}.conversation_parties (tenant_id, party, conversation_id, started_at)
         SELECT m.tenant_id, p.party, m.id, m.started_at
           FROM merged m JOIN deltas d ON d.tenant_id = m.tenant_id AND d.id = m.id,
           LATERAL unnest(d.parties) AS p(party)
         ON CONFLICT (tenant_id, party, conversation_id) DO UPDATE SET started_at = excluded.started_at
       )
       INSERT INTO ${this.schema}.conversation_hops (tenant_id, conversation_id, occurred_at, event_id, family)
       SELECT * FROM unnest($5::uuid[], $6::uuid[], $7::timestamptz[], $8::uuid[], $9::text[])
       ON CONFLICT DO NOTHING`,
      [
        newKeys.map((k) => k.tenantId),
        newKeys.map((k) => k.key),
        newKeys.map((k) => k.conversationId),
        JSON.stringify(grouping.conversations.map(conversationRow)),
        hops.map((h) => h.tenantId),
        hops.map((h) => h.conversationId),
        hops.map((h) => h.occurredAt),
        hops.map((h) => h.eventId),
        hops.map((h) => h.family),
      ],
    );
  }
}

function conversationRow(d: ConversationDelta): Record<string, unknown> {
  const ids = (type: string): string[] =>
    [...d.parties]
      .filter((p) => p.startsWith(`${type}:`))
      .map((p) => p.slice(type.length + 1))
      .sort();
  return {
    tenant_id: d.tenantId,
    id: d.id,
    key_kind: d.keyKind,
    key: d.key,
    started_at: d.startedAt,
    last_at: d.lastAt,
    hop_count: d.hopCount,
    protocols: [...d.protocols].sort(),
    agent_ids: ids('AGENT'),
    user_ids: ids('USER'),
    channel_ids: ids('CHANNEL'),
    mcp_server_ids: ids('MCP_SERVER'),
    has_agent_hops: d.families.has('AGENT'),
    has_mcp_hops: d.families.has('MCP'),
    parties: [...d.parties],
  };
}

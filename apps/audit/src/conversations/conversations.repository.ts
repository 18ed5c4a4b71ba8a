import { Inject, Injectable } from '@nestjs/common';
import {
  ConversationHop,
  ConversationHopsQuery,
  ConversationKeyKind,
  ConversationRecord,
  ConversationsQuery,
} from '@agp/contracts';
import { Database, Row, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const CONVERSATION_COLUMNS = `c.id, c.key_kind, c.key, to_char(c.started_at AT TIME ZONE 'UTC', ${ISO}) AS started_at,
  to_char(c.last_at AT TIME ZONE 'UTC', ${ISO}) AS last_at, c.hop_count, c.protocols, c.agent_ids, c.user_ids,
  c.channel_ids, c.mcp_server_ids`;
/** What a hop's `details` say about where it went (CV12): copied into the message's `route`. */
const ROUTE_FIELDS = ['channelId', 'threadId', 'channelKind', 'a2aContextId', 'mcpSessionId'];

/** D57 reads of the conversation index (conversations.md CV4); every read takes the tenant id. */
@Injectable()
export class ConversationsRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  /** Newest first; a party filter walks that party's index, the rest filter the rows it finds. */
  async list(tx: Tx, q: ConversationsQuery): Promise<ConversationRecord[]> {
    const params: unknown[] = [q.tenantId];
    const where = ['c.tenant_id = $1'];
    // CV6: a reader of one family only; both (the usual case) need no predicate to hurt the plan.
    if (q.families.length === 1) {
      where.push(q.families[0] === 'MCP' ? 'c.has_mcp_hops' : 'c.has_agent_hops');
    }
    const parties = partiesOf(q);
    let from = `${this.schema}.conversations c`;
    let order = 'c.started_at DESC, c.id DESC';
    const position = (at: string, id: string): void => {
      params.push(q.beforeAt, q.beforeId);
      where.push(`(${at}, ${id}) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    };
    if (parties.length > 0) {
      params.push(parties[0]);
      from = `${this.schema}.conversation_parties p JOIN ${this.schema}.conversations c
        ON c.tenant_id = p.tenant_id AND c.id = p.conversation_id`;
      where.push(`p.tenant_id = $1 AND p.party = $${params.length}`);
      order = 'p.started_at DESC, p.conversation_id DESC';
      // Each further party is probed by primary key as the first party's index is walked in order
      // (LIMIT 1 keeps the planner from hashing that party's whole list, CV7).
      for (const [i, party] of parties.slice(1).entries()) {
        params.push(party);
        from += ` JOIN LATERAL (SELECT 1 FROM ${this.schema}.conversation_parties o WHERE o.tenant_id = p.tenant_id
          AND o.party = $${params.length} AND o.conversation_id = p.conversation_id LIMIT 1) o${i} ON true`;
      }
      if (q.beforeAt && q.beforeId) {
        position('p.started_at', 'p.conversation_id');
      }
    } else if (q.beforeAt && q.beforeId) {
      position('c.started_at', 'c.id');
    }
    if (q.to) {
      params.push(q.to);
      where.push(`c.started_at < $${params.length}`);
    }
    if (q.from) {
      params.push(q.from);
      where.push(`c.last_at >= $${params.length}`);
    }
    params.push(q.limit);
    const rows: Row[] = await tx.query(
      `SELECT ${CONVERSATION_COLUMNS} FROM ${from} WHERE ${where.join(' AND ')}
       ORDER BY ${order} LIMIT $${params.length}`,
      params,
    );
    return rows.map(conversationOf);
  }

  async find(tx: Tx, tenantId: string, id: string): Promise<ConversationRecord | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT ${CONVERSATION_COLUMNS} FROM ${this.schema}.conversations c WHERE c.tenant_id = $1 AND c.id = $2`,
      [tenantId, id],
    );
    return rows[0] ? conversationOf(rows[0]) : undefined;
  }

  /** Oldest first; each hop's event is found by its primary key `(id, occurred_at)`. */
  async hops(tx: Tx, q: ConversationHopsQuery): Promise<ConversationHop[]> {
    const params: unknown[] = [q.tenantId, q.conversationId, q.families, q.limit];
    let after = '';
    if (q.afterAt && q.afterId) {
      params.push(q.afterAt, q.afterId);
      after = ' AND (h.occurred_at, h.event_id) > ($5::timestamptz, $6::uuid)';
    }
    const rows: Row[] = await tx.query(
      `SELECT e.id, to_char(e.occurred_at AT TIME ZONE 'UTC', ${ISO}) AS occurred_at, e.protocol, e.action,
         e.source_type, e.source_id, e.source_name, e.sink_type, e.sink_id, e.sink_name, e.policy_ids,
         e.details, e.decision, e.content, e.content_digest, e.correlation_id
       FROM ${this.schema}.conversation_hops h
       JOIN ${this.schema}.events e ON e.id = h.event_id AND e.occurred_at = h.occurred_at
       WHERE h.tenant_id = $1 AND h.conversation_id = $2 AND h.family = ANY($3::text[])${after}
       ORDER BY h.occurred_at, h.event_id LIMIT $4`,
      params,
    );
    return rows.map(hopOf);
  }
}

function partiesOf(q: ConversationsQuery): string[] {
  return [
    q.agentId && `AGENT:${q.agentId}`,
    q.userId && `USER:${q.userId}`,
    q.channelId && `CHANNEL:${q.channelId}`,
    q.mcpServerId && `MCP_SERVER:${q.mcpServerId}`,
  ].filter((p): p is string => !!p);
}

function conversationOf(row: Row): ConversationRecord {
  return {
    id: String(row.id),
    keyKind: row.key_kind as ConversationKeyKind,
    key: String(row.key),
    startedAt: String(row.started_at),
    lastAt: String(row.last_at),
    hopCount: Number(row.hop_count),
    protocols: row.protocols as ConversationRecord['protocols'],
    agentIds: row.agent_ids as string[],
    userIds: row.user_ids as string[],
    channelIds: row.channel_ids as string[],
    mcpServerIds: row.mcp_server_ids as string[],
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function party(type: unknown, id: unknown, label: unknown) {
  return {
    type: text(type) ?? 'UNKNOWN',
    ...(text(id) ? { id: text(id) } : {}),
    ...(text(label) ? { label: text(label) } : {}),
  };
}

function hopOf(row: Row): ConversationHop {
  const details = (row.details ?? {}) as Record<string, unknown>;
  const decision = (row.decision ?? {}) as { reasons?: unknown };
  const route: Record<string, string> = {};
  for (const field of ROUTE_FIELDS) {
    const value = text(details[field]);
    if (value) {
      route[field] = value;
    }
  }
  const direction = text(details.direction);
  const method = text(details.method);
  const toolName = text(details.toolName);
  const content = text(row.content);
  const digest = text(row.content_digest);
  return {
    id: String(row.id),
    occurredAt: String(row.occurred_at),
    protocol: row.protocol as ConversationHop['protocol'],
    source: party(row.source_type, row.source_id, row.source_name),
    sink: party(row.sink_type, row.sink_id, row.sink_name),
    action: row.action as ConversationHop['action'],
    policyIds: ((row.policy_ids as string[] | null) ?? []).map(String),
    reasons: Array.isArray(decision.reasons) ? decision.reasons.map(String) : [],
    correlationId: text(row.correlation_id) ?? '',
    route,
    ...(direction ? { direction } : {}),
    ...(method ? { method } : {}),
    ...(toolName ? { toolName } : {}),
    ...(content !== undefined ? { content } : {}),
    ...(digest ? { contentDigest: digest } : {}),
  };
}

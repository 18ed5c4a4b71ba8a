import { Injectable } from '@nestjs/common';
import { SubscriptionKind } from '@agp/contracts';
import { iso, returning, Row, Tx } from '@agp/database';

import { AgentMcpServer, Subscription } from './subscription.types';

const S = 'relay';
const IDENTITY_TABLES = new Set(['agents', 'users']);
const COLUMNS = 'id, kind, source_id, target_id, tools, created_at, updated_at';

export interface SubscriptionFilter {
  kind?: SubscriptionKind;
  sourceId?: string;
  targetId?: string;
}

function toSubscription(row: Row): Subscription {
  return {
    id: String(row.id),
    kind: String(row.kind) as SubscriptionKind,
    sourceId: String(row.source_id),
    targetId: String(row.target_id),
    tools: (row.tools as string[] | null) ?? null,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

/** Every query on `relay.subscriptions`; each takes the tenant id (D4). */
@Injectable()
export class SubscriptionsRepository {
  async insert(
    tx: Tx,
    tenantId: string,
    subscription: Omit<Subscription, 'createdAt' | 'updatedAt'>,
  ): Promise<Subscription> {
    const rows: Row[] = await tx.query(
      `INSERT INTO ${S}.subscriptions (id, tenant_id, kind, source_id, target_id, tools)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [
        subscription.id,
        tenantId,
        subscription.kind,
        subscription.sourceId,
        subscription.targetId,
        subscription.tools === null ? null : JSON.stringify(subscription.tools),
      ],
    );
    return toSubscription(rows[0]);
  }

  async find(tx: Tx, tenantId: string, id: string): Promise<Subscription | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT ${COLUMNS} FROM ${S}.subscriptions WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0] ? toSubscription(rows[0]) : undefined;
  }

  async list(
    tx: Tx,
    tenantId: string,
    filter: SubscriptionFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: Subscription[]; total: number }> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    for (const [column, value] of [
      ['kind', filter.kind],
      ['source_id', filter.sourceId],
      ['target_id', filter.targetId],
    ] as const) {
      if (value !== undefined) {
        params.push(value);
        where.push(`${column} = $${params.length}`);
      }
    }
    const rows: Row[] = await tx.query(
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM ${S}.subscriptions
        WHERE ${where.join(' AND ')} ORDER BY created_at, id
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    const total = rows[0] ? Number(rows[0].total) : await this.count(tx, where, params);
    return { items: rows.map(toSubscription), total };
  }

  async setTools(
    tx: Tx,
    tenantId: string,
    id: string,
    tools: string[] | null,
  ): Promise<Subscription> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.subscriptions SET tools = $3, updated_at = now()
        WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [tenantId, id, tools === null ? null : JSON.stringify(tools)],
    );
    return toSubscription(rows[0]);
  }

  async delete(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${S}.subscriptions WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
  }

  /** Subscriptions naming an endpoint on either side: what goes when the endpoint goes. */
  async deleteNaming(tx: Tx, tenantId: string, endpointId: string): Promise<Subscription[]> {
    const rows = await returning(
      tx,
      `DELETE FROM ${S}.subscriptions WHERE tenant_id = $1 AND (source_id = $2 OR target_id = $2)
       RETURNING ${COLUMNS}`,
      [tenantId, endpointId],
    );
    return rows.map(toSubscription);
  }

  async exists(tx: Tx, tenantId: string, table: string, id: string): Promise<boolean> {
    // Projected identities stay as DELETED tombstones (R11, issue 30); those are gone too.
    const live = IDENTITY_TABLES.has(table) ? ` AND status <> 'DELETED'` : '';
    const rows: Row[] = await tx.query(
      `SELECT 1 FROM ${S}.${table} WHERE tenant_id = $1 AND id = $2${live}`,
      [tenantId, id],
    );
    return rows.length > 0;
  }

  /** D21: the MCP servers an agent is subscribed to, each with its tool grant. */
  async mcpServersOf(
    tx: Tx,
    tenantId: string,
    agentId: string,
    limit: number,
    offset: number,
  ): Promise<{ items: AgentMcpServer[]; total: number }> {
    const rows: Row[] = await tx.query(
      `SELECT m.id, m.name, m.description, m.transport, sub.id AS subscription_id, sub.tools,
              count(*) OVER () AS total
         FROM ${S}.subscriptions sub
         JOIN ${S}.mcp_servers m ON m.tenant_id = sub.tenant_id AND m.id = sub.target_id
        WHERE sub.tenant_id = $1 AND sub.kind = 'AGENT_TO_MCP_SERVER' AND sub.source_id = $2
        ORDER BY m.name, m.id LIMIT $3 OFFSET $4`,
      [tenantId, agentId, limit, offset],
    );
    return {
      items: rows.map((row) => ({
        id: String(row.id),
        name: String(row.name),
        ...(typeof row.description === 'string' ? { description: row.description } : {}),
        transport: String(row.transport),
        relayPath: `/relay/mcp/${String(row.id)}`,
        subscriptionId: String(row.subscription_id),
        tools: (row.tools as string[] | null) ?? null,
      })),
      total: rows[0] ? Number(rows[0].total) : 0,
    };
  }

  /** The relay's view of an agent, for the AGENT_LIFECYCLE a subscription change records. */
  async agent(
    tx: Tx,
    tenantId: string,
    id: string,
  ): Promise<{ name: string; status: string } | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT name, status FROM ${S}.agents WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0] ? { name: String(rows[0].name), status: String(rows[0].status) } : undefined;
  }

  private async count(tx: Tx, where: string[], params: unknown[]): Promise<number> {
    const rows: Row[] = await tx.query(
      `SELECT count(*)::int AS total FROM ${S}.subscriptions WHERE ${where.join(' AND ')}`,
      params,
    );
    return Number(rows[0]?.total ?? 0);
  }
}

import { Injectable } from '@nestjs/common';
import { AgentVisibility } from '@agp/contracts';
import { date, iso, Row, str, text, Tx } from '@agp/database';

import { visibleToSql } from '../discovery/visibility';
import { missingOf, newerRevision } from '../projections/revisions';
import { Agent, AgentIdentity, AgentMetadata } from './agent.types';

const SELECT = `SELECT a.*, coalesce(u.display_name, u.email) AS owner_name FROM relay.agents a
  LEFT JOIN relay.users u ON u.id = a.owner_user_id AND u.status <> 'DELETED'`;

@Injectable()
export class AgentsRepository {
  /** From AGENT_LIFECYCLE or tenant-auth's answer; only what is newer than the row (issue 30). */
  async upsertIdentity(tx: Tx, tenantId: string, agent: AgentIdentity): Promise<void> {
    await tx.query(
      `INSERT INTO relay.agents (id, tenant_id, name, status, permissions, source_revision)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status,
         permissions = excluded.permissions, updated_at = now(),
         source_revision = coalesce(excluded.source_revision, relay.agents.source_revision)
       WHERE relay.agents.tenant_id = excluded.tenant_id AND ${newerRevision('relay.agents')}`,
      [
        agent.id,
        tenantId,
        agent.name,
        agent.status,
        JSON.stringify(agent.permissions),
        agent.revision ?? null,
      ],
    );
  }

  async missing(tx: Tx, tenantId: string, ids: readonly string[]): Promise<string[]> {
    return missingOf(tx, 'relay.agents', tenantId, ids);
  }

  async updateMetadata(
    tx: Tx,
    tenantId: string,
    id: string,
    metadata: AgentMetadata,
  ): Promise<void> {
    const columns: Record<keyof AgentMetadata, string> = {
      description: 'description',
      agentCardUrl: 'agent_card_url',
      visibility: 'visibility',
      ownerUserId: 'owner_user_id',
      riskTier: 'risk_tier',
      a2aCredential: 'a2a_credential_ciphertext',
      a2aCredentialHeader: 'a2a_credential_header',
      a2aTimeoutMs: 'a2a_timeout_ms',
    };
    const given = (Object.keys(columns) as (keyof AgentMetadata)[]).filter(
      (k) => metadata[k] !== undefined,
    );
    // D38: a new card URL means the kept card is someone else's: fetched again on next use.
    const cardReset = given.includes('agentCardUrl') ? ['agent_card = NULL'] : [];
    await tx.query(
      `UPDATE relay.agents SET ${[...given.map((k, i) => `${columns[k]} = $${i + 3}`), ...cardReset, 'updated_at = now()'].join(', ')}
       WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, ...given.map((k) => metadata[k])],
    );
  }

  /** `viewer`: the agent whose token reads (DS8); null or absent reads every agent. */
  async find(
    tx: Tx,
    tenantId: string,
    id: string,
    viewer: string | null = null,
  ): Promise<Agent | undefined> {
    const rows: Row[] = await tx.query(
      `${SELECT} WHERE a.tenant_id = $1 AND a.id = $2 AND ${visibleToSql('a', '$3')}`,
      [tenantId, id, viewer],
    );
    return rows[0] ? toAgent(rows[0]) : undefined;
  }

  async list(
    tx: Tx,
    tenantId: string,
    filter: { name?: string; visibility?: AgentVisibility; viewer?: string | null },
    limit: number,
    offset: number,
  ): Promise<{ items: Agent[]; total: number }> {
    const where = `a.tenant_id = $1 AND a.status <> 'DELETED' AND ($2::text IS NULL OR a.name ILIKE '%' || $2 || '%') AND ($3::text IS NULL OR a.visibility = $3) AND ${visibleToSql('a', '$4')}`;
    const params = [
      tenantId,
      filter.name ?? null,
      filter.visibility ?? null,
      filter.viewer ?? null,
    ];
    const rows: Row[] = await tx.query(
      `${SELECT} WHERE ${where} ORDER BY a.name LIMIT $5 OFFSET $6`,
      [...params, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM relay.agents a WHERE ${where}`,
      params,
    );
    return { items: rows.map(toAgent), total: Number(count?.n ?? 0) };
  }
}

function toAgent(row: Row): Agent {
  return {
    id: String(row.id),
    name: String(row.name),
    status: String(row.status),
    description: str(row.description),
    agentCardUrl: str(row.agent_card_url),
    visibility: String(row.visibility) as AgentVisibility,
    owner: row.owner_user_id
      ? { id: text(row.owner_user_id), name: str(row.owner_name) }
      : undefined,
    riskTier: str(row.risk_tier),
    hasA2aCredential: Boolean(row.a2a_credential_ciphertext),
    a2aCredentialHeader: str(row.a2a_credential_header),
    a2aTimeoutMs: Number(row.a2a_timeout_ms),
    webhookUrl: str(row.webhook_url),
    webhookPreviousSecretExpiresAt: date(row.webhook_previous_secret_expires_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

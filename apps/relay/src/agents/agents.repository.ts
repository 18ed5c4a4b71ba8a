import { Injectable } from '@nestjs/common';
import { AgentVisibility } from '@agp/contracts';
import { date, iso, Row, str, text, Tx } from '@agp/database';

import { missingOf, newerRevision } from '../projections/revisions';

export interface AgentIdentity {
  id: string;
  name: string;
  status: string;
  permissions: string[];
  /** tenant-auth's revision of it (issue 30); absent from producers without one. */
  revision?: number;
}

export interface AgentMetadata {
  description?: string | null;
  agentCardUrl?: string | null;
  visibility?: AgentVisibility;
  ownerUserId?: string | null;
  riskTier?: string | null;
  /** Sealed already (D37). */
  a2aCredential?: string | null;
  a2aCredentialHeader?: string | null;
  a2aTimeoutMs?: number;
}

export interface AgentResponse {
  id: string;
  name: string;
  status: string;
  description?: string;
  agentCardUrl?: string;
  visibility: AgentVisibility;
  owner?: { id: string; name?: string };
  riskTier?: string;
  /** D37: write-only; `"********"` when one is set. */
  a2aCredential?: string;
  a2aCredentialHeader?: string;
  a2aTimeoutMs: number;
  /** D19: where its webhooks go. */
  webhookUrl?: string;
  /** D19: while a rotated-out secret still signs beside the new one, until when. */
  webhookPreviousSecretExpiresAt?: string;
  createdAt: string;
  updatedAt: string;
}

const SELECT = `SELECT a.*, coalesce(u.display_name, u.email) AS owner_name FROM relay.agents a
  LEFT JOIN relay.users u ON u.id = a.owner_user_id AND u.status <> 'DELETED'`;

/** The agents projection (tenant-auth identity) with the relay's own metadata. */
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

  /** The ids of `ids` this projection does not hold (in the tenant). */
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

  async find(tx: Tx, tenantId: string, id: string): Promise<AgentResponse | undefined> {
    const rows: Row[] = await tx.query(`${SELECT} WHERE a.tenant_id = $1 AND a.id = $2`, [
      tenantId,
      id,
    ]);
    return rows[0] ? toAgent(rows[0]) : undefined;
  }

  async list(
    tx: Tx,
    tenantId: string,
    filter: { name?: string; visibility?: AgentVisibility },
    limit: number,
    offset: number,
  ): Promise<{ items: AgentResponse[]; total: number }> {
    const where = `a.tenant_id = $1 AND a.status <> 'DELETED' AND ($2::text IS NULL OR a.name ILIKE '%' || $2 || '%') AND ($3::text IS NULL OR a.visibility = $3)`;
    const params = [tenantId, filter.name ?? null, filter.visibility ?? null];
    const rows: Row[] = await tx.query(
      `${SELECT} WHERE ${where} ORDER BY a.name LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM relay.agents a WHERE ${where}`,
      params,
    );
    return { items: rows.map(toAgent), total: Number(count?.n ?? 0) };
  }
}

function toAgent(row: Row): AgentResponse {
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
    ...(row.a2a_credential_ciphertext ? { a2aCredential: '********' } : {}),
    a2aCredentialHeader: str(row.a2a_credential_header),
    a2aTimeoutMs: Number(row.a2a_timeout_ms),
    webhookUrl: str(row.webhook_url),
    webhookPreviousSecretExpiresAt: isFuture(row.webhook_previous_secret_expires_at)
      ? iso(row.webhook_previous_secret_expires_at)
      : undefined,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

function isFuture(value: unknown): boolean {
  const at = date(value);
  return at !== undefined && at.getTime() > Date.now();
}

import { Injectable } from '@nestjs/common';
import { Row, Tx, str, text } from '@agp/database';

import { RequiredPolicy } from './marketplace.types';

const S = 'relay';

export interface AgentTarget {
  id: string;
  name: string;
  description?: string;
  visibility: string;
  card?: Record<string, unknown>;
  /** Set on an entry a marketplace install made: such an entry is never published again. */
  installationId?: string;
}

export interface McpServerTarget {
  id: string;
  name: string;
  description?: string;
  transport: string;
  /** MK40: only a PUBLIC server is published, as only a PUBLIC agent is (MK2). */
  visibility: string;
  /** Set on an entry a marketplace install made (MK31): never published again (MK2). */
  installationId?: string;
  /** MK37: a virtual server's installed members (their names): such a server is not published. */
  installedMembers: string[];
}

/** What publishing and installing read and write in the registry (agents, MCP servers, policies). */
@Injectable()
export class MarketplaceTargetsRepository {
  async agent(tx: Tx, tenantId: string, id: string): Promise<AgentTarget | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT id, name, description, visibility, agent_card, installation_id FROM ${S}.agents
        WHERE tenant_id = $1 AND id = $2 AND status <> 'DELETED'`,
      [tenantId, id],
    );
    const row = rows[0];
    return row
      ? {
          id: String(row.id),
          name: String(row.name),
          description: str(row.description),
          visibility: String(row.visibility),
          ...(row.agent_card ? { card: row.agent_card as Record<string, unknown> } : {}),
          ...(row.installation_id ? { installationId: text(row.installation_id) } : {}),
        }
      : undefined;
  }

  async mcpServer(tx: Tx, tenantId: string, id: string): Promise<McpServerTarget | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT s.id, s.name, s.description, s.transport, s.visibility, s.installation_id,
              ARRAY(SELECT m.name FROM ${S}.mcp_servers m
                     WHERE m.tenant_id = s.tenant_id AND m.installation_id IS NOT NULL
                       AND s.members @> jsonb_build_array(jsonb_build_object('serverId', m.id::text))
                     ORDER BY m.name) AS installed_members
         FROM ${S}.mcp_servers s
        WHERE s.tenant_id = $1 AND s.id = $2`,
      [tenantId, id],
    );
    const row = rows[0];
    return row
      ? {
          id: String(row.id),
          name: String(row.name),
          description: str(row.description),
          transport: String(row.transport),
          visibility: String(row.visibility),
          ...(row.installation_id ? { installationId: text(row.installation_id) } : {}),
          installedMembers: (row.installed_members as string[] | null) ?? [],
        }
      : undefined;
  }

  async policyGroups(tx: Tx, tenantId: string, ids: readonly string[]): Promise<RequiredPolicy[]> {
    if (ids.length === 0) {
      return [];
    }
    const rows: Row[] = await tx.query(
      `SELECT id, name FROM ${S}.policy_groups WHERE tenant_id = $1 AND id = ANY ($2::uuid[])`,
      [tenantId, ids],
    );
    return rows.map((row) => ({ id: String(row.id), name: String(row.name) }));
  }

  /** MK12: the installed entry, a PRIVATE agent of the installer routed through the relay. */
  async insertInstalledAgent(
    tx: Tx,
    entry: {
      id: string;
      tenantId: string;
      name: string;
      description: string;
      card: Record<string, unknown>;
      installationId: string;
    },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.agents (id, tenant_id, name, status, permissions, description, visibility,
         agent_card, agent_card_fetched_at, installation_id)
       VALUES ($1, $2, $3, 'ACTIVE', '[]', $4, 'PRIVATE', $5, now(), $6)`,
      [
        entry.id,
        entry.tenantId,
        entry.name,
        entry.description,
        JSON.stringify(entry.card),
        entry.installationId,
      ],
    );
  }

  /** MK14: removing an installation deletes its entry as a deleted agent stays (names in trails). */
  async deleteInstalledAgent(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(
      `UPDATE ${S}.agents SET status = 'DELETED', updated_at = now()
        WHERE tenant_id = $1 AND id = $2 AND installation_id IS NOT NULL`,
      [tenantId, id],
    );
  }

  /**
   * MK31: the installed MCP entry, a PRIVATE server of the installer with no URL of its own: the
   * relay reaches the publisher's server through the publisher's side (MK32).
   */
  async insertInstalledMcpServer(
    tx: Tx,
    entry: {
      id: string;
      tenantId: string;
      name: string;
      description: string;
      installationId: string;
    },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.mcp_servers (id, tenant_id, name, description, url, transport, visibility,
         installation_id)
       VALUES ($1, $2, $3, $4, NULL, 'STREAMABLE_HTTP', 'PRIVATE', $5)`,
      [entry.id, entry.tenantId, entry.name, entry.description, entry.installationId],
    );
  }

  /** MK34: the installed MCP entry goes, and who could call it with it (D32), as a removal does. */
  async deleteInstalledMcpServer(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(
      `DELETE FROM ${S}.subscriptions WHERE tenant_id = $1 AND (source_id = $2 OR target_id = $2)`,
      [tenantId, id],
    );
    await tx.query(
      `DELETE FROM ${S}.mcp_servers WHERE tenant_id = $1 AND id = $2 AND installation_id IS NOT NULL`,
      [tenantId, id],
    );
  }
}

import { Injectable } from '@nestjs/common';
import { Row, Tx, queryNamed, str } from '@agp/database';

import { PoisoningFinding, ToolDefinition } from './tool-definition';

const S = 'relay';

/** What toStored reads: listed, not `*`, so the hop's reads can be named statements (F53). */
const COLUMNS = [
  'server_id',
  'name',
  'definition',
  'definition_hash',
  'findings',
  'pinned_hash',
  'pinned_definition',
  'pinned_at',
  'pinned_by',
  'first_seen_at',
  'changed_at',
];

/** One row of `relay.mcp_tool_definitions` as a domain record (D51). */
export interface StoredToolDefinition {
  serverId: string;
  name: string;
  definition: ToolDefinition;
  definitionHash: string;
  findings: PoisoningFinding[];
  pinnedDefinition?: ToolDefinition;
  pinnedHash?: string;
  pinnedAt?: Date;
  pinnedBy?: string;
  firstSeenAt: Date;
  changedAt: Date;
}

export interface ObservedTool {
  definition: ToolDefinition;
  hash: string;
  findings: PoisoningFinding[];
}

/** Which flags were already recorded (traffic.md T87: one event per changed hash, per pair). */
export type ToolFlagChange = 'TOOL_DEFINITION_CHANGED' | 'TOOL_NAME_SHADOWED';

/** Every query of D51's tool definitions; each method takes the tenant id. */
@Injectable()
export class ToolDefinitionsRepository {
  /** The name of the tenant's server, undefined when it has none. */
  async serverName(tx: Tx, tenantId: string, serverId: string): Promise<string | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT name FROM ${S}.mcp_servers WHERE tenant_id = $1 AND id = $2`,
      [tenantId, serverId],
    );
    return rows[0] ? String(rows[0].name) : undefined;
  }

  async observe(
    tx: Tx,
    tenantId: string,
    serverId: string,
    tools: ObservedTool[],
  ): Promise<StoredToolDefinition[]> {
    if (tools.length === 0) {
      return [];
    }
    await tx.query(
      `INSERT INTO ${S}.mcp_tool_definitions AS d
              (tenant_id, server_id, name, definition, definition_hash, findings)
       SELECT $1, $2, t->>'name', t->'definition', t->>'hash', t->'findings'
         FROM jsonb_array_elements($3::jsonb) AS t
       ON CONFLICT (tenant_id, server_id, name) DO UPDATE
          SET definition = excluded.definition, definition_hash = excluded.definition_hash,
              findings = excluded.findings, changed_at = now()
        WHERE d.definition_hash IS DISTINCT FROM excluded.definition_hash`,
      [tenantId, serverId, JSON.stringify(tools.map((t) => ({ ...t, name: t.definition.name })))],
    );
    return this.ofServer(
      tx,
      tenantId,
      serverId,
      tools.map((t) => t.definition.name),
    );
  }

  /** The server's definitions (only `names` when given), by name. */
  async ofServer(
    tx: Tx,
    tenantId: string,
    serverId: string,
    names?: string[],
  ): Promise<StoredToolDefinition[]> {
    const rows: Row[] = await queryNamed(
      tx,
      `SELECT ${COLUMNS.join(', ')} FROM ${S}.mcp_tool_definitions
        WHERE tenant_id = $1 AND server_id = $2 AND ($3::text[] IS NULL OR name = ANY($3))
        ORDER BY name`,
      [tenantId, serverId, names ?? null],
    );
    return rows.map(toStored);
  }

  async pin(
    tx: Tx,
    tenantId: string,
    serverId: string,
    names: string[] | undefined,
    pinnedBy: string,
  ): Promise<StoredToolDefinition[]> {
    // A bare UPDATE … RETURNING answers [rows, count] through TypeORM; a CTE answers the rows.
    const rows: Row[] = await tx.query(
      `WITH pinned AS (
         UPDATE ${S}.mcp_tool_definitions
            SET pinned_hash = definition_hash, pinned_definition = definition, pinned_at = now(),
                pinned_by = $4
          WHERE tenant_id = $1 AND server_id = $2 AND ($3::text[] IS NULL OR name = ANY($3))
          RETURNING *)
       SELECT * FROM pinned`,
      [tenantId, serverId, names ?? null, pinnedBy],
    );
    return rows.map(toStored).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** D51 shadowing, D32, D43: same names on the party's other subscribed servers. */
  async sameNamesElsewhere(
    tx: Tx,
    tenantId: string,
    serverId: string,
    party: { kind: string; id: string },
    names: string[],
  ): Promise<StoredToolDefinition[]> {
    const rows: Row[] = await queryNamed(
      tx,
      `SELECT ${COLUMNS.map((c) => `d.${c}`).join(', ')} FROM ${S}.mcp_tool_definitions d
         JOIN ${S}.subscriptions sub ON sub.tenant_id = d.tenant_id AND sub.kind = $3
              AND sub.source_id = $4 AND sub.target_id = d.server_id
        WHERE d.tenant_id = $1 AND d.server_id <> $2 AND d.name = ANY($5)`,
      [tenantId, serverId, party.kind, party.id, names],
    );
    return rows.map(toStored);
  }

  /** Marks a flag as recorded; true when it was not yet (the caller records its event). */
  async flag(
    tx: Tx,
    tenantId: string,
    serverId: string,
    name: string,
    change: ToolFlagChange,
    key: string,
  ): Promise<boolean> {
    const rows: Row[] = await tx.query(
      `INSERT INTO ${S}.mcp_tool_flags (tenant_id, server_id, name, change, flag_key)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING name`,
      [tenantId, serverId, name, change, key],
    );
    return rows.length > 0;
  }
}

function toStored(row: Row): StoredToolDefinition {
  const pinnedHash = str(row.pinned_hash);
  return {
    serverId: String(row.server_id),
    name: String(row.name),
    definition: row.definition as ToolDefinition,
    definitionHash: String(row.definition_hash),
    findings: (row.findings as PoisoningFinding[] | null) ?? [],
    ...(pinnedHash
      ? {
          pinnedDefinition: row.pinned_definition as ToolDefinition,
          pinnedHash,
          pinnedAt: row.pinned_at as Date,
          pinnedBy: str(row.pinned_by) ?? '',
        }
      : {}),
    firstSeenAt: row.first_seen_at as Date,
    changedAt: row.changed_at as Date,
  };
}

import { Injectable } from '@nestjs/common';
import { iso, returning, Row, str, Tx } from '@agp/database';

import { KillSwitch, KillSwitchScope } from './kill-switch.types';

const S = 'relay';
const COLUMNS =
  'id, scope, target_id, reason, engaged_by, released_by, released_at, created_at, updated_at';

const TARGET_TABLE: Readonly<Record<Exclude<KillSwitchScope, 'TENANT'>, string>> = {
  AGENT: 'agents',
  MCP_SERVER: 'mcp_servers',
  LLM_GATEWAY: 'llm_gateways',
  CHANNEL: 'channels',
};

export interface KillSwitchFilter {
  scope?: KillSwitchScope;
  targetId?: string;
  engaged?: boolean;
}

function toKillSwitch(row: Row): KillSwitch {
  return {
    id: String(row.id),
    scope: String(row.scope) as KillSwitchScope,
    targetId: String(row.target_id),
    reason: String(row.reason),
    status: row.released_at ? 'RELEASED' : 'ENGAGED',
    engagedBy: str(row.engaged_by) ?? null,
    releasedBy: str(row.released_by) ?? null,
    releasedAt: iso(row.released_at) ?? null,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

/** Every query on `relay.kill_switches`; each takes the tenant id (D4). */
@Injectable()
export class KillSwitchesRepository {
  async insert(
    tx: Tx,
    tenantId: string,
    values: {
      id: string;
      scope: KillSwitchScope;
      targetId: string;
      reason: string;
      engagedBy: string | null;
    },
  ): Promise<KillSwitch> {
    const rows: Row[] = await tx.query(
      `INSERT INTO ${S}.kill_switches (id, tenant_id, scope, target_id, reason, engaged_by)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [values.id, tenantId, values.scope, values.targetId, values.reason, values.engagedBy],
    );
    return toKillSwitch(rows[0]);
  }

  async find(tx: Tx, tenantId: string, id: string): Promise<KillSwitch | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT ${COLUMNS} FROM ${S}.kill_switches WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0] ? toKillSwitch(rows[0]) : undefined;
  }

  async list(
    tx: Tx,
    tenantId: string,
    filter: KillSwitchFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: KillSwitch[]; total: number }> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    if (filter.scope) {
      params.push(filter.scope);
      where.push(`scope = $${params.length}`);
    }
    if (filter.targetId) {
      params.push(filter.targetId);
      where.push(`target_id = $${params.length}`);
    }
    if (filter.engaged !== undefined) {
      where.push(filter.engaged ? 'released_at IS NULL' : 'released_at IS NOT NULL');
    }
    const rows: Row[] = await tx.query(
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM ${S}.kill_switches
        WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return { items: rows.map(toKillSwitch), total: rows[0] ? Number(rows[0].total) : 0 };
  }

  /** Releases an engaged switch; undefined when it was not engaged (any replica may race). */
  async release(
    tx: Tx,
    tenantId: string,
    id: string,
    releasedBy: string | null,
  ): Promise<KillSwitch | undefined> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.kill_switches SET released_at = now(), released_by = $3, updated_at = now()
        WHERE tenant_id = $1 AND id = $2 AND released_at IS NULL RETURNING ${COLUMNS}`,
      [tenantId, id, releasedBy],
    );
    return rows[0] ? toKillSwitch(rows[0]) : undefined;
  }

  /** TENANT targets are checked by the service; DELETED agents only with `includeDeleted`. */
  async targetName(
    tx: Tx,
    tenantId: string,
    scope: Exclude<KillSwitchScope, 'TENANT'>,
    id: string,
    includeDeleted = false,
  ): Promise<{ name: string; status?: string } | undefined> {
    const isAgent = scope === 'AGENT';
    const alive = isAgent && !includeDeleted ? ` AND status <> 'DELETED'` : '';
    const rows: Row[] = await tx.query(
      `SELECT name${isAgent ? ', status' : ''} FROM ${S}.${TARGET_TABLE[scope]}
        WHERE tenant_id = $1 AND id = $2${alive}`,
      [tenantId, id],
    );
    const row = rows[0];
    return row
      ? {
          name: String(row.name),
          ...(typeof row.status === 'string' ? { status: row.status } : {}),
        }
      : undefined;
  }
}

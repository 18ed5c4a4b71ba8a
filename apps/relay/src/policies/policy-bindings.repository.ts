import { Injectable } from '@nestjs/common';
import { BindingLevel } from '@agp/contracts';
import { iso, Row, str, text, Tx } from '@agp/database';

import { BindingMode, PolicyBinding, Reference } from './policy.types';

const S = 'relay';

export interface NewBinding {
  id: string;
  groupId: string;
  versionId: string;
  bindingLevel: BindingLevel;
  mode: BindingMode;
  agentId?: string;
  sourceAgentId?: string;
  sinkAgentId?: string;
  channelId?: string;
  priority: number;
  validFrom: Date;
  validTo?: Date;
}

export interface BindingFilter {
  groupId?: string;
  bindingLevel?: BindingLevel;
  agentId?: string;
}

/** The newest valid version of a group (D18), as SQL, for `isLatestGroupVersion`. */
const LATEST_VALID = `(SELECT lv.id FROM ${S}.policy_group_versions lv
  WHERE lv.group_id = b.group_id AND lv.retired_at IS NULL AND lv.valid_from <= now()
    AND (lv.valid_to IS NULL OR lv.valid_to > now()) ORDER BY lv.sort_key DESC LIMIT 1)`;

const SELECT_BINDING = `SELECT b.id, b.group_id, b.version_id, b.binding_level, b.mode, b.agent_id, b.source_agent_id,
    b.sink_agent_id, b.channel_id, b.priority, b.valid_from, b.valid_to, b.revision, b.created_at, b.updated_at,
    g.name AS group_name, v.version AS group_version, coalesce(v.id = ${LATEST_VALID}, false) AS is_latest,
    a.name AS agent_name, sa.name AS source_agent_name, ka.name AS sink_agent_name, c.name AS channel_name
  FROM ${S}.policy_bindings b
  JOIN ${S}.policy_groups g ON g.id = b.group_id
  JOIN ${S}.policy_group_versions v ON v.id = b.version_id
  LEFT JOIN ${S}.agents a ON a.id = b.agent_id
  LEFT JOIN ${S}.agents sa ON sa.id = b.source_agent_id
  LEFT JOIN ${S}.agents ka ON ka.id = b.sink_agent_id
  LEFT JOIN ${S}.channels c ON c.id = b.channel_id`;

/** Every query on policy bindings; each takes the tenant id (D4). */
@Injectable()
export class PolicyBindingsRepository {
  async insert(tx: Tx, tenantId: string, b: NewBinding): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.policy_bindings (id, tenant_id, group_id, version_id, binding_level, agent_id, source_agent_id,
         sink_agent_id, channel_id, priority, valid_from, valid_to, mode)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        b.id,
        tenantId,
        b.groupId,
        b.versionId,
        b.bindingLevel,
        b.agentId ?? null,
        b.sourceAgentId ?? null,
        b.sinkAgentId ?? null,
        b.channelId ?? null,
        b.priority,
        b.validFrom,
        b.validTo ?? null,
        b.mode,
      ],
    );
  }

  async find(
    tx: Tx,
    tenantId: string,
    id: string,
    lock = false,
  ): Promise<(PolicyBinding & { versionId: string }) | undefined> {
    if (lock) {
      await tx.query(
        `SELECT id FROM ${S}.policy_bindings WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
        [tenantId, id],
      );
    }
    const rows: Row[] = await tx.query(`${SELECT_BINDING} WHERE b.tenant_id = $1 AND b.id = $2`, [
      tenantId,
      id,
    ]);
    return rows[0] ? { ...toBinding(rows[0]), versionId: String(rows[0].version_id) } : undefined;
  }

  /** D22 reporting order is decided per decision; lists go by priority, then age. */
  async list(
    tx: Tx,
    tenantId: string,
    filter: BindingFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: PolicyBinding[]; total: number }> {
    const where = `b.tenant_id = $1 AND ($2::uuid IS NULL OR b.group_id = $2) AND ($3::text IS NULL OR b.binding_level = $3)
      AND ($4::uuid IS NULL OR $4 IN (b.agent_id, b.source_agent_id, b.sink_agent_id))`;
    const params = [
      tenantId,
      filter.groupId ?? null,
      filter.bindingLevel ?? null,
      filter.agentId ?? null,
    ];
    const rows: Row[] = await tx.query(
      `${SELECT_BINDING} WHERE ${where} ORDER BY b.priority, b.created_at LIMIT $5 OFFSET $6`,
      [...params, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${S}.policy_bindings b WHERE ${where}`,
      params,
    );
    return { items: rows.map(toBinding), total: Number(count?.n ?? 0) };
  }

  async update(
    tx: Tx,
    tenantId: string,
    id: string,
    changes: { priority: number; validFrom: Date; validTo?: Date },
  ): Promise<void> {
    await tx.query(
      `UPDATE ${S}.policy_bindings SET priority = $3, valid_from = $4, valid_to = $5, revision = revision + 1, updated_at = now()
       WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, changes.priority, changes.validFrom, changes.validTo ?? null],
    );
  }

  async moveToVersion(tx: Tx, tenantId: string, id: string, versionId: string): Promise<void> {
    await tx.query(
      `UPDATE ${S}.policy_bindings SET version_id = $3, revision = revision + 1, updated_at = now() WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, versionId],
    );
  }

  async setMode(tx: Tx, tenantId: string, id: string, mode: BindingMode): Promise<void> {
    await tx.query(
      `UPDATE ${S}.policy_bindings SET mode = $3, revision = revision + 1, updated_at = now() WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, mode],
    );
  }

  /** G7: locked; what promoting or replaying a candidate there stands in for. */
  async enforcingAtSamePlace(tx: Tx, tenantId: string, id: string): Promise<string[]> {
    const rows: Row[] = await tx.query(
      `SELECT e.id FROM ${S}.policy_bindings e JOIN ${S}.policy_bindings c ON c.id = $2 AND c.tenant_id = $1
       WHERE e.tenant_id = $1 AND e.id <> c.id AND e.mode = 'ENFORCE' AND e.group_id = c.group_id
         AND e.binding_level = c.binding_level
         AND e.agent_id IS NOT DISTINCT FROM c.agent_id
         AND e.source_agent_id IS NOT DISTINCT FROM c.source_agent_id
         AND e.sink_agent_id IS NOT DISTINCT FROM c.sink_agent_id
         AND e.channel_id IS NOT DISTINCT FROM c.channel_id
         AND (e.valid_to IS NULL OR e.valid_to > now())
       ORDER BY e.priority, e.created_at FOR UPDATE OF e`,
      [tenantId, id],
    );
    return rows.map((r) => String(r.id));
  }

  /** The ENFORCE bindings of a group at a place (a replay's candidate stands in for them, G7). */
  async enforcingAt(
    tx: Tx,
    tenantId: string,
    groupId: string,
    place: Pick<
      NewBinding,
      'bindingLevel' | 'agentId' | 'sourceAgentId' | 'sinkAgentId' | 'channelId'
    >,
  ): Promise<string[]> {
    const rows: Row[] = await tx.query(
      `SELECT id FROM ${S}.policy_bindings
       WHERE tenant_id = $1 AND group_id = $2 AND mode = 'ENFORCE' AND binding_level = $3
         AND agent_id IS NOT DISTINCT FROM $4::uuid AND source_agent_id IS NOT DISTINCT FROM $5::uuid
         AND sink_agent_id IS NOT DISTINCT FROM $6::uuid AND channel_id IS NOT DISTINCT FROM $7::uuid
         AND (valid_to IS NULL OR valid_to > now())
       ORDER BY priority, created_at`,
      [
        tenantId,
        groupId,
        place.bindingLevel,
        place.agentId ?? null,
        place.sourceAgentId ?? null,
        place.sinkAgentId ?? null,
        place.channelId ?? null,
      ],
    );
    return rows.map((r) => String(r.id));
  }

  async delete(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${S}.policy_bindings WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
  }

  async existingAgents(tx: Tx, tenantId: string, ids: string[]): Promise<Set<string>> {
    const rows: Row[] = await tx.query(
      `SELECT id FROM ${S}.agents WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status <> 'DELETED'`,
      [tenantId, ids],
    );
    return new Set(rows.map((r) => String(r.id)));
  }

  async channelExists(tx: Tx, tenantId: string, id: string): Promise<boolean> {
    const rows: Row[] = await tx.query(
      `SELECT id FROM ${S}.channels WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows.length > 0;
  }
}

function reference(id: unknown, name: unknown): Reference | undefined {
  return id ? { id: text(id), name: str(name) ?? '' } : undefined;
}

function toBinding(row: Row): PolicyBinding {
  return {
    bindingId: String(row.id),
    version: String(row.revision),
    groupId: String(row.group_id),
    groupName: String(row.group_name),
    groupVersion: String(row.group_version),
    isLatestGroupVersion: row.is_latest === true,
    bindingLevel: String(row.binding_level) as BindingLevel,
    mode: row.mode === 'SHADOW' ? 'SHADOW' : 'ENFORCE',
    agent: reference(row.agent_id, row.agent_name),
    sourceAgent: reference(row.source_agent_id, row.source_agent_name),
    sinkAgent: reference(row.sink_agent_id, row.sink_agent_name),
    channel: reference(row.channel_id, row.channel_name),
    priority: Number(row.priority),
    validFrom: iso(row.valid_from)!,
    validTo: iso(row.valid_to),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

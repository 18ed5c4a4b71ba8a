import { Injectable } from '@nestjs/common';
import { BindingLevel } from '@agp/contracts';
import { date, Row, str, Tx } from '@agp/database';

const S = 'relay';

/** One binding with what evaluating it needs: the bound version's source and its group's data. */
export interface BoundVersionRow {
  bindingId: string;
  bindingLevel: BindingLevel;
  /** D49: SHADOW bindings are evaluated beside the hop, never enforced (G7). */
  mode: 'ENFORCE' | 'SHADOW';
  agentId?: string;
  sourceAgentId?: string;
  sinkAgentId?: string;
  channelId?: string;
  priority: number;
  validFrom: Date;
  validTo?: Date;
  groupId: string;
  groupName: string;
  groupData: Record<string, unknown>;
  versionId: string;
  version: string;
  regoSource: string;
}

@Injectable()
export class PolicySnapshotRepository {
  async boundVersions(tx: Tx, tenantId: string): Promise<BoundVersionRow[]> {
    const rows: Row[] = await tx.query(
      `SELECT b.id, b.binding_level, b.mode, b.agent_id, b.source_agent_id, b.sink_agent_id, b.channel_id, b.priority,
              b.valid_from, b.valid_to, g.id AS group_id, g.name AS group_name, g.data, v.id AS version_id, v.version, v.rego_source
       FROM ${S}.policy_bindings b
       JOIN ${S}.policy_groups g ON g.id = b.group_id
       JOIN ${S}.policy_group_versions v ON v.id = b.version_id
       WHERE b.tenant_id = $1 AND (b.valid_to IS NULL OR b.valid_to > now())`,
      [tenantId],
    );
    return rows.map((row) => ({
      bindingId: String(row.id),
      bindingLevel: String(row.binding_level) as BindingLevel,
      mode: row.mode === 'SHADOW' ? 'SHADOW' : 'ENFORCE',
      agentId: str(row.agent_id),
      sourceAgentId: str(row.source_agent_id),
      sinkAgentId: str(row.sink_agent_id),
      channelId: str(row.channel_id),
      priority: Number(row.priority),
      validFrom: date(row.valid_from)!,
      validTo: date(row.valid_to),
      groupId: String(row.group_id),
      groupName: String(row.group_name),
      groupData: (row.data ?? {}) as Record<string, unknown>,
      versionId: String(row.version_id),
      version: String(row.version),
      regoSource: String(row.rego_source),
    }));
  }

  /** R20: no stored binding is involved, so the binding's id is the version's. */
  async versionAsBinding(
    tx: Tx,
    tenantId: string,
    groupId: string,
    version: string,
  ): Promise<BoundVersionRow | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT g.id AS group_id, g.name AS group_name, g.data, v.id AS version_id, v.version, v.rego_source
       FROM ${S}.policy_group_versions v
       JOIN ${S}.policy_groups g ON g.id = v.group_id
       WHERE g.tenant_id = $1 AND g.id = $2 AND v.version = $3`,
      [tenantId, groupId, version],
    );
    const row = rows[0];
    return row
      ? {
          bindingId: String(row.version_id),
          bindingLevel: 'TENANT',
          mode: 'ENFORCE',
          priority: 0,
          validFrom: new Date(0),
          groupId: String(row.group_id),
          groupName: String(row.group_name),
          groupData: (row.data ?? {}) as Record<string, unknown>,
          versionId: String(row.version_id),
          version: String(row.version),
          regoSource: String(row.rego_source),
        }
      : undefined;
  }

  async tenantSlug(tx: Tx, tenantId: string): Promise<string | undefined> {
    const rows: Row[] = await tx.query(`SELECT slug FROM ${S}.tenants WHERE tenant_id = $1`, [
      tenantId,
    ]);
    return str(rows[0]?.slug);
  }

  async isFailOpen(tx: Tx, tenantId: string): Promise<boolean> {
    const rows: Row[] = await tx.query(
      `SELECT fail_open FROM ${S}.policy_settings WHERE tenant_id = $1`,
      [tenantId],
    );
    return rows[0]?.fail_open === true;
  }

  async setFailOpen(tx: Tx, tenantId: string, failOpen: boolean): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.policy_settings (tenant_id, fail_open) VALUES ($1, $2)
       ON CONFLICT (tenant_id) DO UPDATE SET fail_open = excluded.fail_open, updated_at = now()`,
      [tenantId, failOpen],
    );
  }
}

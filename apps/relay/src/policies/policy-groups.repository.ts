import { Injectable } from '@nestjs/common';
import { date, iso, Row, str, Tx } from '@agp/database';

import { PolicyGroup, PolicyTestOutcome, PolicyVersion } from './policy.types';

const S = 'relay';

export interface NewVersion {
  id: string;
  groupId: string;
  version: string;
  sortKey: string;
  description?: string;
  regoSource: string;
  regoSourceHash: string;
  validFrom: Date;
  validTo?: Date;
  createdBy: string;
  testSource?: string;
  testResults?: PolicyTestOutcome[];
}

/** The few columns of a version that rules need (ordering, validity). */
export interface VersionState {
  id: string;
  version: string;
  sortKey: string;
  validFrom: Date;
  validTo?: Date;
  retiredAt?: Date;
}

const GROUP_COLUMNS = `g.id, g.name, g.description, g.data, g.created_at, g.updated_at,
  (SELECT count(*) FROM ${S}.policy_group_versions v WHERE v.group_id = g.id)::int AS version_count,
  (SELECT v.version FROM ${S}.policy_group_versions v WHERE v.group_id = g.id ORDER BY v.sort_key DESC LIMIT 1) AS latest_version`;

const VERSION_COLUMNS = `v.id, v.group_id, v.version, g.name, v.description, v.rego_source, v.rego_source_hash, v.test_source, v.test_results,
  v.valid_from, v.valid_to, v.retired_at, v.created_at,
  (SELECT count(*) FROM ${S}.policy_bindings b WHERE b.version_id = v.id)::int AS binding_count`;

/** Every query on policy groups and their versions; each takes the tenant id (D4). */
@Injectable()
export class PolicyGroupsRepository {
  async insertGroup(
    tx: Tx,
    tenantId: string,
    id: string,
    name: string,
    description: string | undefined,
    data: object,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.policy_groups (id, tenant_id, name, description, data) VALUES ($1, $2, $3, $4, $5)`,
      [id, tenantId, name, description ?? null, JSON.stringify(data)],
    );
  }

  async updateGroup(
    tx: Tx,
    tenantId: string,
    id: string,
    // An absent or null field keeps its value (coalesce).
    changes: { name?: string; description?: string | null; data?: object | null },
  ): Promise<void> {
    await tx.query(
      `UPDATE ${S}.policy_groups SET name = coalesce($3, name), description = coalesce($4, description),
         data = coalesce($5::jsonb, data), updated_at = now() WHERE tenant_id = $1 AND id = $2`,
      [
        tenantId,
        id,
        changes.name ?? null,
        changes.description ?? null,
        changes.data ? JSON.stringify(changes.data) : null,
      ],
    );
  }

  async deleteGroup(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${S}.policy_groups WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
  }

  /** Locks the group row, so versions of one group are created one at a time. */
  async findGroup(
    tx: Tx,
    tenantId: string,
    id: string,
    lock = false,
  ): Promise<PolicyGroup | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT ${GROUP_COLUMNS} FROM ${S}.policy_groups g WHERE g.tenant_id = $1 AND g.id = $2${lock ? ' FOR UPDATE OF g' : ''}`,
      [tenantId, id],
    );
    return rows[0] ? toGroup(rows[0]) : undefined;
  }

  async listGroups(
    tx: Tx,
    tenantId: string,
    name: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ items: PolicyGroup[]; total: number }> {
    const filter = `g.tenant_id = $1 AND ($2::text IS NULL OR g.name ILIKE '%' || $2 || '%')`;
    const rows: Row[] = await tx.query(
      `SELECT ${GROUP_COLUMNS} FROM ${S}.policy_groups g WHERE ${filter} ORDER BY g.name LIMIT $3 OFFSET $4`,
      [tenantId, name ?? null, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${S}.policy_groups g WHERE ${filter}`,
      [tenantId, name ?? null],
    );
    return { items: rows.map(toGroup), total: Number(count?.n ?? 0) };
  }

  async countBindingsOfGroup(tx: Tx, tenantId: string, groupId: string): Promise<number> {
    const [row] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${S}.policy_bindings WHERE tenant_id = $1 AND group_id = $2`,
      [tenantId, groupId],
    );
    return Number(row?.n ?? 0);
  }

  async insertVersion(tx: Tx, tenantId: string, v: NewVersion): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.policy_group_versions
         (id, tenant_id, group_id, version, sort_key, description, rego_source, rego_source_hash, valid_from, valid_to, created_by, test_source, test_results)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        v.id,
        tenantId,
        v.groupId,
        v.version,
        v.sortKey,
        v.description ?? null,
        v.regoSource,
        v.regoSourceHash,
        v.validFrom,
        v.validTo ?? null,
        v.createdBy,
        v.testSource ?? null,
        v.testResults ? JSON.stringify(v.testResults) : null,
      ],
    );
  }

  async findVersion(
    tx: Tx,
    tenantId: string,
    groupId: string,
    version: string,
  ): Promise<PolicyVersion | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT ${VERSION_COLUMNS} FROM ${S}.policy_group_versions v JOIN ${S}.policy_groups g ON g.id = v.group_id
       WHERE v.tenant_id = $1 AND v.group_id = $2 AND v.version = $3`,
      [tenantId, groupId, version],
    );
    return rows[0] ? toVersion(rows[0]) : undefined;
  }

  async listVersions(
    tx: Tx,
    tenantId: string,
    groupId: string,
    includeRetired: boolean,
    limit: number,
    offset: number,
  ): Promise<{ items: PolicyVersion[]; total: number }> {
    const filter = `v.tenant_id = $1 AND v.group_id = $2 AND ($3 OR v.retired_at IS NULL)`;
    const rows: Row[] = await tx.query(
      `SELECT ${VERSION_COLUMNS} FROM ${S}.policy_group_versions v JOIN ${S}.policy_groups g ON g.id = v.group_id
       WHERE ${filter} ORDER BY v.sort_key DESC LIMIT $4 OFFSET $5`,
      [tenantId, groupId, includeRetired, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${S}.policy_group_versions v WHERE ${filter}`,
      [tenantId, groupId, includeRetired],
    );
    return { items: rows.map(toVersion), total: Number(count?.n ?? 0) };
  }

  /** D16: versions other than `exceptVersionId` whose window includes now and that are not retired, newest first. */
  async listAvailableVersions(
    tx: Tx,
    tenantId: string,
    groupId: string,
    exceptVersionId: string,
  ): Promise<PolicyVersion[]> {
    const rows: Row[] = await tx.query(
      `SELECT ${VERSION_COLUMNS} FROM ${S}.policy_group_versions v JOIN ${S}.policy_groups g ON g.id = v.group_id
       WHERE v.tenant_id = $1 AND v.group_id = $2 AND v.id <> $3 AND v.retired_at IS NULL
         AND v.valid_from <= now() AND (v.valid_to IS NULL OR v.valid_to > now())
       ORDER BY v.sort_key DESC`,
      [tenantId, groupId, exceptVersionId],
    );
    return rows.map(toVersion);
  }

  async latestVersionState(
    tx: Tx,
    tenantId: string,
    groupId: string,
  ): Promise<VersionState | undefined> {
    return this.versionStates(tx, tenantId, groupId, 'TRUE').then((rows) => rows[0]);
  }

  /** D18: the newest version that is not retired and whose window includes now. */
  async latestValidVersionState(
    tx: Tx,
    tenantId: string,
    groupId: string,
  ): Promise<VersionState | undefined> {
    const valid = `v.retired_at IS NULL AND v.valid_from <= now() AND (v.valid_to IS NULL OR v.valid_to > now())`;
    return this.versionStates(tx, tenantId, groupId, valid).then((rows) => rows[0]);
  }

  async versionState(
    tx: Tx,
    tenantId: string,
    groupId: string,
    version: string,
  ): Promise<VersionState | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT v.id, v.version, v.sort_key, v.valid_from, v.valid_to, v.retired_at FROM ${S}.policy_group_versions v
       WHERE v.tenant_id = $1 AND v.group_id = $2 AND v.version = $3`,
      [tenantId, groupId, version],
    );
    return rows[0] ? toVersionState(rows[0]) : undefined;
  }

  async retireVersion(tx: Tx, tenantId: string, versionId: string): Promise<void> {
    await tx.query(
      `UPDATE ${S}.policy_group_versions SET retired_at = now(),
         valid_to = CASE WHEN valid_to IS NULL OR valid_to > now() THEN now() ELSE valid_to END
       WHERE tenant_id = $1 AND id = $2`,
      [tenantId, versionId],
    );
  }

  private async versionStates(
    tx: Tx,
    tenantId: string,
    groupId: string,
    condition: string,
  ): Promise<VersionState[]> {
    const rows: Row[] = await tx.query(
      `SELECT v.id, v.version, v.sort_key, v.valid_from, v.valid_to, v.retired_at FROM ${S}.policy_group_versions v
       WHERE v.tenant_id = $1 AND v.group_id = $2 AND ${condition} ORDER BY v.sort_key DESC LIMIT 1`,
      [tenantId, groupId],
    );
    return rows.map(toVersionState);
  }
}

function toGroup(row: Row): PolicyGroup {
  return {
    id: String(row.id),
    name: String(row.name),
    description: str(row.description),
    data: (row.data ?? {}) as Record<string, unknown>,
    latestVersion: str(row.latest_version),
    versionCount: Number(row.version_count),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

function toVersion(row: Row): PolicyVersion {
  return {
    id: String(row.id),
    groupId: String(row.group_id),
    version: String(row.version),
    name: String(row.name),
    description: str(row.description),
    regoSource: String(row.rego_source),
    regoSourceHash: String(row.rego_source_hash),
    testSource: str(row.test_source),
    testResults: (row.test_results ?? undefined) as PolicyTestOutcome[] | undefined,
    bindingCount: Number(row.binding_count),
    validFrom: iso(row.valid_from)!,
    validTo: iso(row.valid_to),
    retiredAt: iso(row.retired_at),
    createdAt: iso(row.created_at)!,
  };
}

function toVersionState(row: Row): VersionState {
  return {
    id: String(row.id),
    version: String(row.version),
    sortKey: String(row.sort_key),
    validFrom: date(row.valid_from)!,
    validTo: date(row.valid_to),
    retiredAt: date(row.retired_at),
  };
}

import { iso, Row, str, Tx } from '@agp/database';

import { visibleToSql } from '../discovery/visibility';

/** A catalog table of the registry: its name and its own columns (camelCase field → column). */
export interface CatalogSpec {
  table: string;
  columns: Readonly<Record<string, string>>;
  integers?: readonly string[];
  /** Array columns (`text[]`, `uuid[]`), given and read back as arrays in their order. */
  lists?: readonly string[];
  objects?: readonly string[];
  /** D26, D37: read back as `"********"`, so no stored value ever leaves the repository. */
  writeOnly?: readonly string[];
  /** DS8: the table has `visibility`, so an agent's token sees only what discovery shows it. */
  hasVisibility?: boolean;
  /** What a field reads as while its column is null. */
  defaults?: Readonly<Record<string, string>>;
}

/** What a write-only field reads as when it is set. */
export const WRITE_ONLY_MASK = '********';

export type CatalogValue = string | number | string[] | Record<string, unknown> | undefined;

export type CatalogEntry = Record<string, CatalogValue> & {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
};

export class CatalogRepository {
  private readonly fields: string[];

  constructor(private readonly spec: CatalogSpec) {
    this.fields = Object.keys(spec.columns);
  }

  async insert(
    tx: Tx,
    tenantId: string,
    id: string,
    values: Record<string, unknown>,
  ): Promise<void> {
    // Fields not given are left to the column's default (an MCP server's timeout_ms).
    const given = this.fields.filter((f) => values[f] !== undefined);
    const columns = given.map((f) => this.spec.columns[f]);
    const placeholders = columns.map((_c, i) => `$${i + 3}`);
    await tx.query(
      `INSERT INTO relay.${this.spec.table} (${['id', 'tenant_id', ...columns].join(', ')}) VALUES (${['$1', '$2', ...placeholders].join(', ')})`,
      [id, tenantId, ...given.map((f) => this.param(f, values[f]))],
    );
  }

  /** Changes only the fields present in `values`; `null` clears an optional one. */
  async update(
    tx: Tx,
    tenantId: string,
    id: string,
    values: Record<string, unknown>,
  ): Promise<void> {
    const given = this.fields.filter((f) => values[f] !== undefined);
    const sets = given.map((f, i) => `${this.spec.columns[f]} = $${i + 3}`);
    await tx.query(
      `UPDATE relay.${this.spec.table} SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, ...given.map((f) => this.param(f, values[f]))],
    );
  }

  /** `viewer`: the agent whose token reads (DS8); null or absent reads every entry. */
  async find(
    tx: Tx,
    tenantId: string,
    id: string,
    viewer: string | null = null,
  ): Promise<CatalogEntry | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM relay.${this.spec.table} c WHERE tenant_id = $1 AND id = $2 AND ${this.visible('$3')}`,
      [tenantId, id, viewer],
    );
    return rows[0] ? this.toEntry(rows[0]) : undefined;
  }

  async list(
    tx: Tx,
    tenantId: string,
    name: string | undefined,
    limit: number,
    offset: number,
    viewer: string | null = null,
  ): Promise<{ items: CatalogEntry[]; total: number }> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR name ILIKE '%' || $2 || '%') AND ${this.visible('$3')}`;
    const rows: Row[] = await tx.query(
      `SELECT * FROM relay.${this.spec.table} c WHERE ${where} ORDER BY name LIMIT $4 OFFSET $5`,
      [tenantId, name ?? null, viewer, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM relay.${this.spec.table} c WHERE ${where}`,
      [tenantId, name ?? null, viewer],
    );
    return { items: rows.map((r) => this.toEntry(r)), total: Number(count?.n ?? 0) };
  }

  async delete(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM relay.${this.spec.table} WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
  }

  private visible(param: string): string {
    return this.spec.hasVisibility ? visibleToSql('c', param) : `(${param}::uuid IS NULL OR true)`;
  }

  private param(field: string, value: unknown): unknown {
    return this.spec.objects?.includes(field) && value !== null ? JSON.stringify(value) : value;
  }

  private toEntry(row: Row): CatalogEntry {
    const entry: Record<string, CatalogValue> = {
      id: str(row.id),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
    for (const field of this.fields) {
      const value = row[this.spec.columns[field]];
      if (this.spec.writeOnly?.includes(field)) {
        entry[field] = value === null || value === undefined ? undefined : WRITE_ONLY_MASK;
      } else if (this.spec.lists?.includes(field)) {
        entry[field] = Array.isArray(value) ? value.map(String) : undefined;
      } else if (this.spec.objects?.includes(field)) {
        entry[field] =
          value === null || value === undefined ? undefined : (value as Record<string, unknown>);
      } else if (this.spec.integers?.includes(field)) {
        entry[field] = value === null || value === undefined ? undefined : Number(value);
      } else {
        entry[field] = str(value) ?? this.spec.defaults?.[field];
      }
    }
    return entry as CatalogEntry;
  }
}

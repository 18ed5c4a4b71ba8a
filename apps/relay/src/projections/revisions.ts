import { Row, Tx } from '@agp/database';

/**
 * The condition under which an incoming identity (`excluded`) replaces the projected row (issue
 * 30): only a newer revision of tenant-auth's wins, so a late, repeated or reordered event, or an
 * owner answer older than an event already applied, never undoes a newer state. A side without a
 * revision (rows or producers from before revisions) applies as before.
 */
export function newerRevision(table: string): string {
  return `(excluded.source_revision IS NULL OR ${table}.source_revision IS NULL
    OR excluded.source_revision > ${table}.source_revision)`;
}

/** The ids of `ids` that a projection keyed by `id` does not hold in the tenant. */
export async function missingOf(
  tx: Tx,
  table: string,
  tenantId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows: Row[] = await tx.query(
    `SELECT id FROM ${table} WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
    [tenantId, ids],
  );
  const held = new Set(rows.map((row) => String(row.id)));
  return ids.filter((id) => !held.has(id));
}

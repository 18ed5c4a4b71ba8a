import { Row, Tx } from '@agp/database';

/** Issue 30: only a newer revision wins, so a late or reordered event never undoes a newer one. */
export function newerRevision(table: string): string {
  return `(excluded.source_revision IS NULL OR ${table}.source_revision IS NULL
    OR excluded.source_revision > ${table}.source_revision)`;
}

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

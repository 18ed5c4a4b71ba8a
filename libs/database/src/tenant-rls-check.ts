import { DataSource } from 'typeorm';

/** A tenant-owned table (it has a `tenant_id` column) that row-level security does not guard fully. */
export interface RlsGap {
  table: string;
  enabled: boolean;
  forced: boolean;
  hasPolicy: boolean;
  /** Set for a partition: its parent's policies apply only to queries through the parent. */
  partitionOf: string | null;
}

/** D4: row-level security ENABLED and FORCED (the owner is subject to it too) with a policy. */
export async function findTablesWithoutForcedRls(
  dataSource: DataSource,
  schemas: readonly string[],
): Promise<RlsGap[]> {
  const rows: Array<{
    table: string;
    enabled: boolean;
    forced: boolean;
    has_policy: boolean;
    partition_of: string | null;
  }> = await dataSource.query(
    `SELECT n.nspname || '.' || c.relname AS table,
              c.relrowsecurity AS enabled,
              c.relforcerowsecurity AS forced,
              EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid) AS has_policy,
              (SELECT pn.nspname || '.' || pc.relname
                 FROM pg_inherits i
                 JOIN pg_class pc ON pc.oid = i.inhparent
                 JOIN pg_namespace pn ON pn.oid = pc.relnamespace
                WHERE i.inhrelid = c.oid AND c.relispartition) AS partition_of
         FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p')
          AND n.nspname = ANY($1::text[])
          AND EXISTS (
            SELECT 1 FROM pg_attribute a
             WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND a.attnum > 0 AND NOT a.attisdropped)
          AND NOT (c.relrowsecurity AND c.relforcerowsecurity
                   AND EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid))
        ORDER BY 1`,
    [schemas],
  );
  return rows.map((row) => ({
    table: row.table,
    enabled: row.enabled,
    forced: row.forced,
    hasPolicy: row.has_policy,
    partitionOf: row.partition_of,
  }));
}

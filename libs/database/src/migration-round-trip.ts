import { DataSource } from 'typeorm';

import { SchemaDataSourceOptions, createSchemaDataSource } from './data-source';
import { migrate, revert } from './migrations';
import { findTablesWithoutForcedRls } from './tenant-rls-check';

export interface MigrationRoundTrip {
  count: number;
  applied: string[];
  tablesAfterUp: string[];
  /** Tenant-owned tables (or partitions) without forced row-level security and a policy. */
  unguardedTables: string[];
  tablesAfterDown: string[];
  reapplied: string[];
}

async function tablesOf(dataSource: DataSource, schema: string): Promise<string[]> {
  const rows: Array<{ name: string }> = await dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
    [schema],
  );
  return rows.map((row) => row.name);
}

/** For each service's migration spec (D4). */
export async function runMigrationRoundTrip(
  options: SchemaDataSourceOptions,
): Promise<MigrationRoundTrip> {
  const dataSource = createSchemaDataSource(options);
  await dataSource.initialize();
  try {
    const count = dataSource.migrations.length;
    const applied = await migrate(dataSource, options.schema);
    const tablesAfterUp = await tablesOf(dataSource, options.schema);
    const unguarded = await findTablesWithoutForcedRls(dataSource, [options.schema]);
    await revert(dataSource, count);
    const tablesAfterDown = await tablesOf(dataSource, options.schema);
    const reapplied = await migrate(dataSource, options.schema);
    return {
      count,
      applied,
      tablesAfterUp,
      unguardedTables: unguarded.map((gap) => JSON.stringify(gap)),
      tablesAfterDown,
      reapplied,
    };
  } finally {
    await dataSource.destroy();
  }
}

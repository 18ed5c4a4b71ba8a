import { Database, createSchemaDataSource, migrate } from '@agp/database';
import { createTestDatabase } from '@agp/testing';

import { relayDataSourceOptions } from '../../src/database/data-source';

/** A relay schema, migrated, in a database of its own for one spec file; `close` drops it. */
export interface MigratedRelayDatabase {
  database: Database;
  close(): Promise<void>;
}

export async function migratedRelayDatabase(
  label: string,
  poolSize = 2,
): Promise<MigratedRelayDatabase> {
  const testDatabase = await createTestDatabase(label);
  const options = relayDataSourceOptions(testDatabase.url);
  const dataSource = createSchemaDataSource({ ...options, poolSize });
  await dataSource.initialize();
  await migrate(dataSource, options.schema);
  const database = new Database(dataSource, options.schema);
  return {
    database,
    close: async () => {
      await database.close();
      await testDatabase.drop();
    },
  };
}

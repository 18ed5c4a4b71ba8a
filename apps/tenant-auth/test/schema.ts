import { Database, createSchemaDataSource, migrate } from '@agp/database';
import { TestDatabase, createTestDatabase } from '@agp/testing';

import { tenant_authDataSourceOptions } from '../src/database/data-source';

/** The tenant_auth schema, migrated, on a database of its own: for repository specs. */
export async function openTestSchema(
  label: string,
): Promise<{ database: Database; drop(): Promise<void> }> {
  const testDatabase: TestDatabase = await createTestDatabase(label);
  const options = tenant_authDataSourceOptions(testDatabase.url);
  const dataSource = createSchemaDataSource({ ...options, poolSize: 3 });
  await dataSource.initialize();
  await migrate(dataSource, options.schema);
  const database = new Database(dataSource, options.schema);
  return {
    database,
    drop: async () => {
      await database.close();
      await testDatabase.drop();
    },
  };
}

import 'reflect-metadata';

import { loadEnvOrExit } from '@agp/config';
import { createSchemaDataSource, migrate } from '@agp/database';

import { AuditEnv } from './config/audit.env';
import { auditDataSourceOptions } from './database/data-source';

/** D4: the production path for schema changes (the Kubernetes migration Job runs this). */
async function main(): Promise<void> {
  const env = loadEnvOrExit(AuditEnv);
  if (!env.DATABASE_URL) {
    process.stderr.write('invalid configuration: DATABASE_URL is required\n');
    process.exit(1);
  }
  const options = auditDataSourceOptions(env.DATABASE_URL);
  const dataSource = createSchemaDataSource(options);
  await dataSource.initialize();
  const applied = await migrate(dataSource, options.schema);
  process.stdout.write(
    `audit: ${applied.length} migration(s) applied${applied.length ? ': ' + applied.join(', ') : ''}\n`,
  );
  await dataSource.destroy();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `audit: migration failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});

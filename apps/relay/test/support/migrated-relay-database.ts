import { Database, createSchemaDataSource, migrate } from '@agp/database';
import { EventOutbox, InProcessTransport, ReplicaBroadcast } from '@agp/messaging';
import { createTestDatabase } from '@agp/testing';
import { Logger } from 'pino';

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

/**
 * A replica's broadcast and outbox on the database, wired as in the services: the replica's own
 * commits reach its listeners inside the commit (T2, R40).
 */
export function replicaBroadcastOn(
  database: Database,
  logger: Logger,
): { broadcast: ReplicaBroadcast; outbox: EventOutbox } {
  const broadcast = new ReplicaBroadcast(new InProcessTransport(logger), logger);
  const outbox = new EventOutbox(database);
  outbox.notifyOnCommit((envelopes) => broadcast.committed(envelopes));
  return { broadcast, outbox };
}

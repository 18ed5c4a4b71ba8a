import { randomUUID } from 'node:crypto';

import { EventEnvelope } from '@agp/contracts';
import { Database, Tx, createSchemaDataSource, enableTenantRls, migrate } from '@agp/database';
import { createJobRunsTable } from '@agp/jobs/testing';
import pino, { Logger } from 'pino';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { createMessagingTables, dropMessagingTables } from '../../src/messaging-tables';
import { EventOutbox } from '../../src/event-outbox';

/** The schema the messaging specs use, in a database of their own (createTestDatabase). */
export const TEST_SCHEMA = 'messaging_test';

/**
 * A small service schema as a real service has it: outbox and inbox, one tenant-owned table a
 * request changes (`orders`) and one a consumer writes its effect to (`effects`).
 */
export class CreateMessagingTestTables1700000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createMessagingTables(runner, TEST_SCHEMA);
    await runner.query(`
      CREATE TABLE ${TEST_SCHEMA}.orders (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        label text NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE ${TEST_SCHEMA}.effects (
        seq bigserial PRIMARY KEY,
        tenant_id uuid NOT NULL,
        event_id uuid NOT NULL,
        consumer text NOT NULL,
        replica text NOT NULL
      )`);
    // What every service's schema has for its scheduled jobs (`@agp/jobs`), the inbox pruning's too.
    await createJobRunsTable(runner, TEST_SCHEMA);
    await enableTenantRls(runner, `${TEST_SCHEMA}.orders`);
    await enableTenantRls(runner, `${TEST_SCHEMA}.effects`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${TEST_SCHEMA}.job_runs`);
    await runner.query(`DROP TABLE ${TEST_SCHEMA}.effects`);
    await runner.query(`DROP TABLE ${TEST_SCHEMA}.orders`);
    await dropMessagingTables(runner, TEST_SCHEMA);
  }
}

export const silentLogger: Logger = pino({ level: 'silent' });

/** A `Database` on the test schema, migrated, as `DatabaseModule.forRoot` builds it. */
export async function openTestSchema(url: string, poolSize = 4): Promise<Database> {
  const dataSource = createSchemaDataSource({
    url,
    schema: TEST_SCHEMA,
    entities: [],
    migrations: [CreateMessagingTestTables1700000000000],
    poolSize,
  });
  await dataSource.initialize();
  await migrate(dataSource, TEST_SCHEMA);
  return new Database(dataSource, TEST_SCHEMA);
}

/** A request's work: one state change and its event, committed together (D5). */
export async function placeOrder(
  database: Database,
  outbox: EventOutbox,
  tenantId: string,
  label: string,
): Promise<EventEnvelope> {
  return database.inTenant(tenantId, async (tx) => {
    await tx.query(`INSERT INTO ${TEST_SCHEMA}.orders (id, tenant_id, label) VALUES ($1, $2, $3)`, [
      randomUUID(),
      tenantId,
      label,
    ]);
    return outbox.add(tx, 'HITL', { tenantId, correlationId: randomUUID() }, { summary: label });
  });
}

/** A consumer's effect, written in the handler's transaction (so it commits with the inbox row). */
export async function recordEffect(
  tx: Tx,
  event: EventEnvelope,
  consumer: string,
  replica: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO ${TEST_SCHEMA}.effects (tenant_id, event_id, consumer, replica) VALUES ($1, $2, $3, $4)`,
    [event.tenantId, event.id, consumer, replica],
  );
}

export interface StoredEffect {
  eventId: string;
  consumer: string;
  replica: string;
}

export async function storedEffects(database: Database): Promise<StoredEffect[]> {
  return database.asSystem((tx) =>
    tx.query(
      `SELECT event_id AS "eventId", consumer, replica FROM ${TEST_SCHEMA}.effects ORDER BY seq`,
    ),
  );
}

export async function outboxSize(database: Database): Promise<number> {
  const [row]: Array<{ count: number }> = await database.asSystem((tx) =>
    tx.query(`SELECT count(*)::int AS count FROM ${TEST_SCHEMA}.outbox`),
  );
  return row.count;
}

/** How many times each event id appears among the effects. */
export function countsById(effects: StoredEffect[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const effect of effects) {
    counts.set(effect.eventId, (counts.get(effect.eventId) ?? 0) + 1);
  }
  return counts;
}

/** A promise and its resolver, to hold a handler mid-work until the test lets it go. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

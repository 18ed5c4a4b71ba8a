import { QueryRunner } from 'typeorm';

/** Infrastructure, not tenant data. */
export async function createMessagingTables(runner: QueryRunner, schema: string): Promise<void> {
  await runner.query(`
    CREATE TABLE ${schema}.outbox (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      type text NOT NULL,
      envelope jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  await runner.query(`
    CREATE TABLE ${schema}.inbox (
      consumer text NOT NULL,
      event_id uuid NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, event_id)
    )`);
}

export async function dropMessagingTables(runner: QueryRunner, schema: string): Promise<void> {
  await runner.query(`DROP TABLE IF EXISTS ${schema}.inbox`);
  await runner.query(`DROP TABLE IF EXISTS ${schema}.outbox`);
}

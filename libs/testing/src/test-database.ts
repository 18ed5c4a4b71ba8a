import { randomBytes } from 'node:crypto';

import { Client } from 'pg';

/** The server tests run against; CI and developer machines have PostgreSQL here (trust auth). */
export const TEST_SERVER_URL =
  process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A database of its own for one test run, so runs never see each other's data. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `agp_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(5).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  return {
    name,
    url: withDatabase(TEST_SERVER_URL, name),
    drop: () =>
      onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

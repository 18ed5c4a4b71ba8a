import { Client } from 'pg';

import { inEmbeddedProcess } from '../test/support/embedded-process';
import { SharedSession } from './shared-session';

// One process embeds PGlite for the suite (its first start runs initdb, seconds on a busy
// machine); each scenario below is a function of that process's script, with tables of its own.
const SCENARIOS = `
  const options = (target) =>
    schemaDataSourceOptions({ url: target, schema: 'public', entities: [], migrations: [] });
  const inMemory = async () => {
    const source = await dataSource('in-memory');
    const [row] = await source.query('SELECT $1::int + 1 AS n', [41]);
    return {
      embedded: typeof options(url).extra.stream,
      elsewhere: typeof options('postgresql://postgres@127.0.0.1:1/postgres').extra.stream,
      n: row.n,
    };
  };
  const waitsForTransaction = async () => {
    const a = await dataSource('waits-a');
    const b = await dataSource('waits-b');
    await a.query('CREATE TABLE drafts (text text)');
    const runner = a.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query("INSERT INTO drafts VALUES ('draft')");
    const order = [];
    const counted = b.query('SELECT count(*)::int AS n FROM drafts').then(([row]) => {
      order.push('counted');
      return row.n;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.push('rolled back');
    await runner.rollbackTransaction();
    await runner.release();
    return { order, seen: await counted };
  };
  const transactionsInTurn = async () => {
    const a = await dataSource('turn-a');
    const b = await dataSource('turn-b');
    await a.query('CREATE TABLE counter (n int)');
    await a.query('INSERT INTO counter VALUES (0)');
    await Promise.all(Array.from({ length: 40 }, (_, i) =>
      (i % 2 ? a : b).transaction(async (tx) => {
        const [{ n }] = await tx.query('SELECT n FROM counter');
        await tx.query('UPDATE counter SET n = $1', [n + 1]);
      }),
    ));
    const [row] = await a.query('SELECT n FROM counter');
    return { n: row.n };
  };
  const goneInTransaction = async () => {
    const b = await dataSource('gone');
    await b.query('CREATE TABLE notes (text text)');
    const client = await connect();
    client.on('error', () => undefined);
    await client.query('BEGIN');
    await client.query("INSERT INTO notes VALUES ('draft')");
    client.connection.stream.destroy();
    const [row] = await b.query('SELECT count(*)::int AS n FROM notes');
    return { seen: row.n };
  };
  const afterFailure = async () => {
    const source = await dataSource('failure');
    const failed = await source.query('SELECT 1 / $1::int', [0]).catch((error) => error.code);
    const [row] = await source.query('SELECT $1::int AS n', [2]);
    return { failed, n: row.n };
  };
  return {
    inMemory: await inMemory(),
    waitsForTransaction: await waitsForTransaction(),
    transactionsInTurn: await transactionsInTurn(),
    goneInTransaction: await goneInTransaction(),
    afterFailure: await afterFailure(),
  };
`;

type Outcomes = Record<string, Record<string, unknown>>;

describe(SharedSession.name, () => {
  let outcomes: Outcomes;
  let saidThroughSocket: unknown;

  beforeAll(async () => {
    outcomes = await inEmbeddedProcess<Outcomes>(SCENARIOS, async (url) => {
      const client = new Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ said: string }>('SELECT $1::text AS said', ['hello']);
      saidThroughSocket = rows[0]?.said;
      await client.end();
    });
  }, 180_000);

  it('should reach the database in memory when this process embeds its URL', () => {
    expect(outcomes.inMemory).toEqual({ embedded: 'function', elsewhere: 'undefined', n: 42 });
  });

  it('should keep the session to a transaction while another connection waits', () => {
    expect(outcomes.waitsForTransaction).toEqual({ order: ['rolled back', 'counted'], seen: 0 });
  });

  it('should run transactions one after another when two pools share the session', () => {
    expect(outcomes.transactionsInTurn).toEqual({ n: 40 });
  });

  it('should roll back the transaction of a connection that goes away in it', () => {
    expect(outcomes.goneInTransaction).toEqual({ seen: 0 });
  });

  it('should answer the next statement when one failed', () => {
    expect(outcomes.afterFailure).toEqual({ failed: '22012', n: 2 });
  });

  it('should serve another process through its socket', () => {
    expect(saidThroughSocket).toBe('hello');
  });
});

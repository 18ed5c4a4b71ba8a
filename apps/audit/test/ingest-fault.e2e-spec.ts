import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { EventEnvelope } from '@agp/contracts';
import { DEFAULT_REDELIVERY, JetStreamTransport } from '@agp/messaging';
import {
  TestDatabase,
  TestNatsServer,
  createTestDatabase,
  eventually,
  startNatsServer,
  uniqueNatsPrefix,
} from '@agp/testing';
import { Client } from 'pg';
import pino from 'pino';

import { auditEnvelope } from './support/audit-test-app';

const TOTAL = 20_000;
const TENANTS = Array.from({ length: 5 }, () => randomUUID());
const APP_DIR = join(__dirname, '..');

/** SIGKILL, not SIGTERM: a crash, with no chance to flush or ack anything. */
function killNats(server: TestNatsServer): void {
  const lines = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n');
  const line = lines.find((l) => l.includes('nats-server') && l.includes(`-p ${server.port} `));
  const pid = Number(line?.trim().split(/\s+/)[0]);
  if (!pid) {
    throw new Error(`no nats-server on port ${server.port}`);
  }
  process.kill(pid, 'SIGKILL');
}

function startConsumer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      join(APP_DIR, 'scripts', 'register-ts.js'),
      join(__dirname, 'support', 'ingest-process.ts'),
    ],
    {
      cwd: APP_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4_000);
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        resolve(child);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`ingest process exited with ${code}: ${errors}`)),
    );
  });
}

async function killConsumer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Publishes with the event id as Nats-Msg-Id and retries until JetStream acknowledged it. */
async function publishAll(
  transport: JetStreamTransport,
  envelopes: EventEnvelope[],
): Promise<void> {
  const inFlight = 100;
  for (let start = 0; start < envelopes.length; start += inFlight) {
    await Promise.all(
      envelopes.slice(start, start + inFlight).map(async (envelope) => {
        for (;;) {
          try {
            await transport.publish(envelope);
            return;
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }
      }),
    );
  }
}

/**
 * Issue 5's fault test: 20,000 events published while NATS is killed and restarted once and the
 * audit consumer process is killed and restarted once: exactly 20,000 stored, none twice, and the
 * chains verify. The claim is about process crashes: this NATS server does not fsync every write,
 * so a machine crash could lose what it had acknowledged.
 */
describe('audit ingest under faults', () => {
  let db: TestDatabase;
  let nats: TestNatsServer;
  let sql: Client;
  let publisher: JetStreamTransport;
  let consumer: ChildProcess | undefined;
  const prefix = uniqueNatsPrefix('audfault');

  beforeAll(async () => {
    db = await createTestDatabase('audit_fault');
    nats = await startNatsServer();
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    // The outbox relays' publisher (the event id as Nats-Msg-Id), reconnecting for ever.
    publisher = await JetStreamTransport.connect(
      { url: nats.url, prefix, redelivery: DEFAULT_REDELIVERY, publishTimeoutMs: 2_000 },
      pino({ level: 'silent' }),
    );
  });

  afterAll(async () => {
    if (consumer && consumer.exitCode === null) {
      await killConsumer(consumer);
    }
    await publisher?.close().catch(() => undefined);
    await sql?.end();
    await nats?.destroy();
    await db?.drop();
  });

  it('should store exactly 20,000 events once each when NATS and the consumer each crash once', async () => {
    const env = {
      AUDIT_FAULT_DATABASE_URL: db.url,
      AUDIT_FAULT_NATS_URL: nats.url,
      AUDIT_FAULT_PREFIX: prefix,
    };
    const envelopes = Array.from({ length: TOTAL }, (_, i) =>
      auditEnvelope(TENANTS[i % TENANTS.length] ?? '', 'COMMUNICATION_AUDIT', {
        protocol: 'MCP',
        action: 'LOG',
        summary: `event ${i}`,
      }),
    );
    consumer = await startConsumer(env);

    await publishAll(publisher, envelopes.slice(0, 6_000));
    killNats(nats);
    const restarted = startNatsServer({ port: nats.port, storeDir: nats.storeDir }).then(
      (server) => {
        nats = server;
      },
    );
    await Promise.all([publishAll(publisher, envelopes.slice(6_000, 12_000)), restarted]);

    await killConsumer(consumer);
    await publishAll(publisher, envelopes.slice(12_000, 16_000));
    consumer = await startConsumer(env);
    await publishAll(publisher, envelopes.slice(16_000));

    const counts = await eventually(
      async () => {
        const result = await sql.query<{ total: string; distinct_ids: string }>(
          'SELECT count(*) AS total, count(DISTINCT id) AS distinct_ids FROM audit.events',
        );
        expect(Number(result.rows[0]?.total)).toBe(TOTAL);
        return result.rows[0];
      },
      600,
      200,
    );
    expect(Number(counts?.distinct_ids)).toBe(TOTAL);
    const chains = await sql.query<{ tenant_id: string; seq: string; count: string; max: string }>(
      `SELECT h.tenant_id, h.seq, count(e.id) AS count, max(e.seq) AS max FROM audit.chain_heads h
       JOIN audit.events e ON e.tenant_id = h.tenant_id AND e.family = h.family GROUP BY h.tenant_id, h.seq`,
    );
    expect(chains.rows).toHaveLength(TENANTS.length);
    chains.rows.forEach((chain) =>
      expect([chain.count, chain.max]).toEqual([chain.seq, chain.seq]),
    );
    const stored = new Set(
      (await sql.query<{ id: string }>('SELECT id FROM audit.events')).rows.map((r) => r.id),
    );
    expect(envelopes.filter((e) => !stored.has(e.id))).toEqual([]);
  }, 600_000);
});

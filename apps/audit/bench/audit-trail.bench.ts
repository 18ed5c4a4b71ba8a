import 'reflect-metadata';

import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AUDIT_EVENT_TYPES, EventEnvelope } from '@agp/contracts';
import { DEFAULT_REDELIVERY, JetStreamTransport, assertValidEnvelope } from '@agp/messaging';
import {
  TestNatsServer,
  TestTokenIssuer,
  createTestDatabase,
  startNatsServer,
  uniqueNatsPrefix,
} from '@agp/testing';
import { Client } from 'pg';
import pino from 'pino';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

import { IntegrityService } from '../src/integrity/integrity.service';
import { auditEnvelope, startAudit } from '../test/support/audit-test-app';
import {
  CpuShares,
  cpuSecondsOf,
  cpuSecondsOfPostgres,
  memoryOf,
  startProcess,
  stopProcess,
} from './bench-processes';
import { precompile } from './precompile';

const N = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const PUBLISHERS = 512;
// Types whose payloads have a shape of their own are left out: the consumer would park them as
// poison, and one poison event sends its whole batch one by one (A43).
const TYPES = AUDIT_EVENT_TYPES.filter(
  (t) =>
    !['AGENT_LIFECYCLE', 'POLICY_LIFECYCLE', 'CREDENTIAL_ROTATION', 'ADMIN_CHANGE'].includes(t) &&
    !t.startsWith('MONITOR_'),
);
const RAW_COLUMNS =
  'id, occurred_at, tenant_id, event_type, protocol, action, actor_type, actor_id, source_type, source_id, sink_type, sink_id, policy_ids, correlation_id, summary';

function line(label: string, value: string): void {
  process.stdout.write(`${label.padEnd(52)} ${value}\n`);
}

function rate(count: number, ms: number): string {
  return `${Math.round((count * 1_000) / ms).toLocaleString('en-US')} /s  (${(ms / 1_000).toFixed(1)} s)`;
}

/** The Node options the audit image starts the service with (docker/Dockerfile, stage svc-audit, A15). */
function auditImageNodeOptions(): string {
  const dockerfile = readFileSync(
    join(__dirname, '..', '..', '..', 'docker', 'Dockerfile'),
    'utf8',
  );
  const nodeOptions =
    /^FROM \S+ AS svc-audit\n(?:(?!FROM ).*\n)*?ENV NODE_OPTIONS="([^"]*)"$/m.exec(dockerfile)?.[1];
  if (nodeOptions === undefined) {
    throw new Error('docker/Dockerfile: no ENV NODE_OPTIONS in stage svc-audit');
  }
  return nodeOptions;
}

/** Where the ingest runs: a database and a nats-server of the benchmark's own. */
interface IngestSetup {
  databaseUrl: string;
  database: string;
  nats: TestNatsServer;
  prefix: string;
  sql: Client;
  precompiled: string;
}

/**
 * The processes that share the machine's CPUs during ingest, and what each spends per event. The
 * nats-server is the benchmark's own and PostgreSQL is counted by the backends of its database, so
 * that other work on the machine is not counted.
 */
function ingestCpu(setup: IngestSetup, consumerPid: number): CpuShares {
  return new CpuShares({
    publisher: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    },
    'nats-server': () => cpuSecondsOf(setup.nats.pid),
    consumer: () => cpuSecondsOf(consumerPid),
    postgres: () => cpuSecondsOfPostgres(setup.database),
  });
}

function startConsumer(setup: IngestSetup): ReturnType<typeof startProcess> {
  return startProcess(
    'test/support/ingest-process.ts',
    {
      AUDIT_FAULT_DATABASE_URL: setup.databaseUrl,
      AUDIT_FAULT_NATS_URL: setup.nats.url,
      AUDIT_FAULT_PREFIX: setup.prefix,
      AUDIT_INGEST_BATCH: '1000',
      // The consumer runs as the service's image runs it.
      NODE_OPTIONS: auditImageNodeOptions(),
    },
    setup.precompiled,
  );
}

function eventAt(tenantId: string, i: number): EventEnvelope {
  return auditEnvelope(tenantId, TYPES[i % TYPES.length] ?? 'COMMUNICATION_AUDIT', {
    protocol: i % 3 === 0 ? 'MCP' : 'REST',
    action: i % 11 === 0 ? 'BLOCK' : 'LOG',
    actor: { type: 'AGENT', id: `agent-${i % 50}`, label: 'Bench agent' },
    source: { type: 'AGENT', id: `agent-${i % 50}` },
    sink: { type: 'MCP_SERVER', id: `mcp-${i % 7}`, label: 'Tools' },
    policyIds: [randomUUID()],
    summary: `call ${i}, tools/call "read_file"`,
    details: { method: 'tools/call', size: i % 1_000 },
  });
}

/** Refuses to start with an event the consumer would park, which the wait for all would never see. */
function assertEventsValid(): void {
  const tenantId = randomUUID();
  for (let i = 0; i < TYPES.length; i += 1) {
    try {
      assertValidEnvelope(eventAt(tenantId, i));
    } catch (error) {
      throw new Error(`${TYPES[i]}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

/** Publishes `count` events of one tenant, PUBLISHERS at a time; returns how long it took (ms). */
async function publish(
  natsUrl: string,
  prefix: string,
  tenantId: string,
  count: number,
): Promise<number> {
  // The services' outbox relays' transport, publishing as they do (the event id as Nats-Msg-Id).
  const transport = await JetStreamTransport.connect(
    { url: natsUrl, prefix, redelivery: DEFAULT_REDELIVERY },
    pino({ level: 'silent' }),
  );
  const start = performance.now();
  let next = 0;
  const publisher = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      await transport.publish(eventAt(tenantId, i));
    }
  };
  await Promise.all(Array.from({ length: PUBLISHERS }, publisher));
  const elapsed = performance.now() - start;
  await transport.close();
  return elapsed;
}

async function storedCount(sql: Client, tenantId: string): Promise<number> {
  const result = await sql.query<{ stored: string }>(
    'SELECT coalesce(sum(seq), 0) AS stored FROM audit.chain_heads WHERE tenant_id = $1',
    [tenantId],
  );
  return Number(result.rows[0]?.stored);
}

async function storedAll(sql: Client, tenantId: string, count: number): Promise<void> {
  while ((await storedCount(sql, tenantId)) < count) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The consumer's own capacity: a backlog published while no consumer runs, then drained. Batches
 * are full here, unlike end to end, where they are as large as what arrived meanwhile.
 */
async function drain(setup: IngestSetup): Promise<void> {
  const tenantId = randomUUID();
  const count = Number(process.env.BENCH_DRAIN_EVENTS ?? Math.min(N, 200_000));
  await publish(setup.nats.url, setup.prefix, tenantId, count);
  const start = performance.now();
  const consumer = await startConsumer(setup);
  // Its capacity: from the moment it is ready (it may have stored a few already) to the last commit.
  const ready = performance.now();
  const storedWhenReady = await storedCount(setup.sql, tenantId);
  const cpu = ingestCpu(setup, consumer.child.pid ?? 0);
  await storedAll(setup.sql, tenantId, count);
  const end = performance.now();
  const shares = cpu.perEvent(count - storedWhenReady);
  await stopProcess(consumer.child);
  line(
    `ingest of a ${count.toLocaleString('en-US')}-event backlog (start → committed)`,
    rate(count, end - start),
  );
  line(
    '  once the consumer is ready (ready → committed)',
    rate(count - storedWhenReady, end - ready),
  );
  line('  CPU per event', shares);
}

/** Publish → committed: a separate ingest process consumes while this one publishes. */
async function ingest(setup: IngestSetup, tenantId: string): Promise<void> {
  const consumer = await startConsumer(setup);
  const cpu = ingestCpu(setup, consumer.child.pid ?? 0);
  const start = performance.now();
  const published = await publish(setup.nats.url, setup.prefix, tenantId, N);
  await storedAll(setup.sql, tenantId, N);
  const committed = performance.now() - start;
  const shares = cpu.perEvent(N);
  await stopProcess(consumer.child);
  line('publish only (JetStream acks)', rate(N, published));
  line('ingest end to end (publish → committed)', rate(N, committed));
  line('  CPU per event', shares);
}

/** PostgreSQL's own figures on the same rows: COPY TO of the export's columns, COPY FROM of whole rows. */
async function rawCopy(sql: Client, tenantId: string): Promise<void> {
  let rows = 0;
  const drain = new Writable({
    write(chunk: Buffer, _encoding, done): void {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
        rows += 1;
      }
      done();
    },
  });
  const [, copyToMs] = await timed(() =>
    pipeline(
      sql.query(
        copyTo(
          `COPY (SELECT ${RAW_COLUMNS} FROM audit.events WHERE tenant_id = '${tenantId}' ORDER BY occurred_at, id) TO STDOUT WITH (FORMAT csv)`,
        ),
      ),
      drain,
    ),
  );
  line('raw COPY TO (export columns, csv, drained)', rate(rows, copyToMs));
  const file = join(tmpdir(), `audit-bench-${randomUUID()}.copy`);
  await pipeline(
    sql.query(
      copyTo(`COPY (SELECT * FROM audit.events WHERE tenant_id = '${tenantId}') TO STDOUT`),
    ),
    createWriteStream(file),
  );
  await sql.query(
    'CREATE TABLE audit.bench_raw (LIKE audit.events INCLUDING DEFAULTS INCLUDING INDEXES)',
  );
  const [, copyFromMs] = await timed(() =>
    pipeline(createReadStream(file), sql.query(copyFrom('COPY audit.bench_raw FROM STDIN'))),
  );
  line('raw COPY FROM (whole rows, same indexes)', rate(N, copyFromMs));
  rmSync(file);
  await sql.query('DROP TABLE audit.bench_raw');
}

/** Verification in this process; its CPU time counts the walker threads too (A14). */
async function verification(databaseUrl: string, tenantId: string): Promise<void> {
  const app = await startAudit({ databaseUrl, issuer: await TestTokenIssuer.create() });
  const cpuBefore = process.cpuUsage();
  const [result, ms] = await timed(() => app.get(IntegrityService).verify(tenantId));
  const cpu = process.cpuUsage(cpuBefore);
  await app.close();
  if (!result.verified || result.checkedCount !== N) {
    throw new Error(`verification failed: ${JSON.stringify(result)}`);
  }
  line('verification', rate(result.checkedCount, ms));
  line(
    '  verifying process CPU per event (all threads)',
    `${((cpu.user + cpu.system) / result.checkedCount).toFixed(1)} µs  (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
}

/**
 * Operation 6 over HTTP from a process that does nothing else; its peak RSS is the export's. The
 * process gets the Node options the audit image starts with (docker/Dockerfile, stage svc-audit,
 * A15), so what is measured is what runs in production.
 */
async function exportCsv(
  databaseUrl: string,
  tenantId: string,
  precompiled: string,
): Promise<void> {
  const nodeOptions = auditImageNodeOptions();
  const server = await startProcess(
    'bench/export-server.ts',
    { BENCH_DATABASE_URL: databaseUrl, BENCH_TENANT_ID: tenantId, NODE_OPTIONS: nodeOptions },
    precompiled,
  );
  const [port, token] = server.ready;
  const pid = server.child.pid ?? 0;
  const before = memoryOf(pid);
  let peak = before.rssMiB;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memoryOf(pid).rssMiB);
  }, 50);
  let records = 0;
  let bytes = 0;
  const [, ms] = await timed(
    () =>
      new Promise<void>((resolve, reject) => {
        get(
          {
            host: '127.0.0.1',
            port: Number(port),
            path: '/audit/v1/events/export',
            headers: { authorization: `Bearer ${token}` },
          },
          (response) => {
            response.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
              for (let i = chunk.indexOf(13); i !== -1; i = chunk.indexOf(13, i + 1)) {
                records += 1;
              }
            });
            response.on('end', resolve);
            response.on('error', reject);
          },
        ).on('error', reject);
      }),
  );
  clearInterval(sampler);
  const after = memoryOf(pid);
  await stopProcess(server.child);
  if (records - 1 !== N) {
    throw new Error(`export returned ${records - 1} rows, expected ${N}`);
  }
  line(
    'export over HTTP (rows, CRLF, neutralised)',
    `${rate(N, ms)}  ${(bytes / 1_048_576).toFixed(0)} MiB`,
  );
  line(
    'export process RSS before → peak sampled / VmHWM',
    `${before.rssMiB.toFixed(0)} → ${peak.toFixed(0)} / ${after.peakMiB.toFixed(0)} MiB  (NODE_OPTIONS=${nodeOptions})`,
  );
}

async function main(): Promise<void> {
  assertEventsValid();
  const db = await createTestDatabase('audit_bench');
  const prefix = uniqueNatsPrefix('audbench');
  const tenantId = randomUUID();
  const sql = new Client({ connectionString: db.url });
  process.stdout.write(
    `audit trail benchmark: ${N.toLocaleString('en-US')} events, one tenant, ${TYPES.length} event types\n`,
  );
  process.stdout.write(
    `machine: ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  await sql.connect();
  const precompiled = precompile();
  const nats = await startNatsServer();
  const setup: IngestSetup = {
    databaseUrl: db.url,
    database: new URL(db.url).pathname.slice(1),
    nats,
    prefix,
    sql,
    precompiled,
  };
  try {
    await ingest(setup, tenantId);
    await drain(setup);
    if (process.env.BENCH_PART === 'ingest') {
      return;
    }
    await rawCopy(sql, tenantId);
    await verification(db.url, tenantId);
    await exportCsv(db.url, tenantId, precompiled);
  } finally {
    rmSync(precompiled, { recursive: true, force: true });
    await sql.end();
    await nats.destroy();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

import 'reflect-metadata';

import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

import { TestTokenIssuer, createTestDatabase } from '@agp/testing';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

import type { startAudit as StartAudit } from '../test/support/audit-test-app';
import type { SPAN_COLUMNS as SpanColumns } from '../src/telemetry/ingest/telemetry-columns';

/* eslint-disable @typescript-eslint/no-require-imports --
   `BENCH_ROOT` may point at another checkout (a baseline), so its modules are loaded by path. */

// `BENCH_ROOT=<another checkout>` runs that checkout's audit service and `@agp/*` libraries (the npm
// script loads its TypeScript hook) under this script, for a before/after in one sitting.
const ROOT = process.env.BENCH_ROOT || join(__dirname, '..', '..', '..');
const { startAudit } = require(
  join(ROOT, 'apps', 'audit', 'test', 'support', 'audit-test-app'),
) as {
  startAudit: typeof StartAudit;
};
const { SPAN_COLUMNS } = require(
  join(ROOT, 'apps', 'audit', 'src', 'telemetry', 'ingest', 'telemetry-columns'),
) as { SPAN_COLUMNS: typeof SpanColumns };

const REQUESTS = Number(process.env.BENCH_TELEMETRY_REQUESTS ?? 60);
// Rounds of (protobuf, JSON, raw COPY), interleaved so that a change of the machine's load
// between them falls on all three; the medians are compared.
const ROUNDS = Number(process.env.BENCH_TELEMETRY_ROUNDS ?? 3);
const SPANS_PER_REQUEST = 512;
const IN_FLIGHT = 2;
const COLUMNS = SPAN_COLUMNS.map((c) => c.name).join(', ');
// `BENCH_TELEMETRY_PROFILE=<dir>`: a CPU profile of each round's protobuf ingest only (the audit
// service and the bench's client share this process), written there as `.cpuprofile`.
const PROFILE_DIR = process.env.BENCH_TELEMETRY_PROFILE;

function line(label: string, value: string): void {
  process.stdout.write(`${label.padEnd(52)} ${value}\n`);
}

function perSecond(count: number, ms: number): number {
  return (count * 1_000) / ms;
}

function rate(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString('en-US')} spans/s  (median)`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Batches of spans as an agent's SDK makes them: an agent turn, its model calls and tool calls. */
function exportBatches(): ReadableSpan[][] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': 'bench-agent',
      'service.version': '1.4.2',
      'deployment.environment': 'bench',
    }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('bench-agent', '1.0.0');
  const batches: ReadableSpan[][] = [];
  for (let r = 0; r < REQUESTS; r += 1) {
    exporter.reset();
    for (let s = 0; s < SPANS_PER_REQUEST; s += 1) {
      const span = tracer.startSpan(s % 4 === 0 ? 'invoke_agent support' : 'execute_tool lookup', {
        attributes: {
          'gen_ai.operation.name': s % 4 === 0 ? 'invoke_agent' : 'execute_tool',
          'gen_ai.request.model': 'gpt-4.1-mini',
          'gen_ai.tool.name': 'lookup_order',
          'gen_ai.usage.input_tokens': 1_200 + s,
          'gen_ai.usage.output_tokens': 300,
          'mcp.method.name': 'tools/call',
          'mcp.session.id': randomUUID(),
          'http.response.status_code': 200,
        },
      });
      span.addEvent('tool result', { bytes: 512 });
      span.end();
    }
    batches.push([...exporter.getFinishedSpans()]);
  }
  return batches;
}

async function post(url: string, token: string, body: Uint8Array, type: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    body,
  });
  await response.arrayBuffer();
  if (response.status !== 200) {
    throw new Error(`export answered ${response.status}`);
  }
}

/**
 * CPU milliseconds used so far by this database's server processes (Linux, same machine), or by
 * the bench client's own (`own`): a pooled session of the service that ends between two readings
 * would take its CPU out of the sum.
 */
async function databaseCpuMs(client: Client, own: boolean): Promise<number> {
  const { rows } = await client.query<{ pid: number }>(
    own
      ? `SELECT pg_backend_pid() AS pid`
      : `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
  );
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name): utime, stime.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // A backend that ended meanwhile.
    }
  }
  return ticks * 10;
}

/** What a phase cost in CPU, in µs per span: this process (the audit service and the client), the database. */
async function cpuOf<T>(
  client: Client,
  spans: number,
  phase: () => Promise<T>,
  own = false,
): Promise<{ result: T; node: number; database: number }> {
  const database = await databaseCpuMs(client, own);
  const node = process.cpuUsage();
  const result = await phase();
  const used = process.cpuUsage(node);
  return {
    result,
    node: (used.user + used.system) / spans,
    database: ((await databaseCpuMs(client, own)) - database) * (1_000 / spans),
  };
}

/** `phase` under the CPU profiler when `BENCH_TELEMETRY_PROFILE` names a directory. */
async function profiled<T>(name: string, phase: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) {
    return phase();
  }
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await phase();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** Every request sent with IN_FLIGHT at a time, as a batch span processor's exports overlap. */
async function ingest(
  url: string,
  token: string,
  bodies: Uint8Array[],
  type: string,
): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let i = next++; i < bodies.length; i = next++) {
        await post(url, token, bodies[i], type);
      }
    }),
  );
  return performance.now() - started;
}

/** The stored rows as COPY text, and the time `COPY … FROM STDIN` takes to write them again. */
async function rawCopy(
  client: Client,
  schema: string,
  tenantId: string,
  round: number,
): Promise<{ rows: number; ms: number }> {
  const chunks: Buffer[] = [];
  await pipeline(
    client.query(
      copyTo(
        `COPY (SELECT ${COLUMNS} FROM ${schema}.telemetry_spans WHERE tenant_id = '${tenantId}') TO STDOUT`,
      ),
    ),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  const text = Buffer.concat(chunks);
  const rows = text.toString('utf8').split('\n').length - 1;
  const table = `${schema}.bench_raw_spans_${round}`;
  await client.query(`CREATE TABLE ${table} (LIKE ${schema}.telemetry_spans INCLUDING DEFAULTS)`);
  await client.query(
    `CREATE INDEX ON ${table} (tenant_id, start_time DESC, id DESC);
     CREATE INDEX ON ${table} (tenant_id, trace_id)`,
  );
  const started = performance.now();
  const stream = client.query(copyFrom(`COPY ${table} (${COLUMNS}) FROM STDIN`));
  stream.end(text);
  await new Promise<void>((resolve, reject) => stream.on('finish', resolve).on('error', reject));
  return { rows, ms: performance.now() - started };
}

async function main(): Promise<void> {
  const database = await createTestDatabase('bench_telemetry');
  const issuer = await TestTokenIssuer.create();
  const app = await startAudit({
    databaseUrl: database.url,
    issuer,
    env: { TELEMETRY_ITEMS_PER_MINUTE: '100000000' },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const batches = exportBatches();
    const spans = REQUESTS * SPANS_PER_REQUEST;
    const agent = async (tenantId: string): Promise<string> =>
      issuer.token({
        tenantId,
        subject: randomUUID(),
        kind: 'AGENT',
        scope: 'telemetry:write',
        perms: [],
      });
    const url = `${base}/audit/v1/telemetry/v1/traces`;
    line(
      'machine',
      `${cpus().length} CPUs, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (shared)`,
    );
    line('audit service from', ROOT);
    line(
      'export requests',
      `${REQUESTS} × ${SPANS_PER_REQUEST} spans, ${IN_FLIGHT} in flight, ${ROUNDS} rounds`,
    );
    // One warm-up request: the first partition check and protobuf root load are not the steady state.
    await post(
      url,
      await agent(randomUUID()),
      ProtobufTraceSerializer.serializeRequest(batches[0])!,
      'application/x-protobuf',
    );

    const proto = batches.map((b) => ProtobufTraceSerializer.serializeRequest(b)!);
    const json = batches.map((b) => JsonTraceSerializer.serializeRequest(b)!);
    const rates = { proto: [] as number[], json: [] as number[], raw: [] as number[] };
    const cpu = { proto: [] as string[], raw: [] as string[] };
    for (let round = 0; round < ROUNDS; round += 1) {
      const protoTenant = randomUUID();
      const protoToken = await agent(protoTenant);
      const protoRun = await cpuOf(client, spans, () =>
        profiled(`protobuf-${round + 1}`, () =>
          ingest(url, protoToken, proto, 'application/x-protobuf'),
        ),
      );
      const protoMs = protoRun.result;
      const jsonMs = await ingest(url, await agent(randomUUID()), json, 'application/json');
      const rawRun = await cpuOf(
        client,
        spans,
        () => rawCopy(client, 'audit', protoTenant, round),
        true,
      );
      const raw = rawRun.result;
      cpu.proto.push(`${protoRun.node.toFixed(0)} + ${protoRun.database.toFixed(0)}`);
      cpu.raw.push(`${rawRun.node.toFixed(0)} + ${rawRun.database.toFixed(0)}`);
      if (raw.rows !== spans) {
        throw new Error(`stored ${raw.rows} spans of ${spans}`);
      }
      rates.proto.push(perSecond(spans, protoMs));
      rates.json.push(perSecond(spans, jsonMs));
      rates.raw.push(perSecond(raw.rows, raw.ms));
      line(
        `round ${round + 1}: protobuf, JSON, raw COPY (spans/s)`,
        [rates.proto, rates.json, rates.raw].map((r) => Math.round(r[round])).join(', '),
      );
    }
    const protoRate = median(rates.proto);
    const jsonRate = median(rates.json);
    const rawRate = median(rates.raw);
    line('OTLP/HTTP protobuf ingest (HTTP, decode, COPY)', rate(protoRate));
    line('OTLP/HTTP JSON ingest', rate(jsonRate));
    line('raw COPY FROM STDIN of the same rows', rate(rawRate));
    line('protobuf ingest ÷ raw COPY (goal ≥ 0.5)', (protoRate / rawRate).toFixed(2));
    line('JSON ingest ÷ raw COPY', (jsonRate / rawRate).toFixed(2));
    line('CPU µs/span, protobuf ingest (node + database)', cpu.proto.join(', '));
    line('CPU µs/span, raw COPY (node + database)', cpu.raw.join(', '));
  } finally {
    await client.end();
    await app.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

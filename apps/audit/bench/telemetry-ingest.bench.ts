import 'reflect-metadata';

import { randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cpus, loadavg } from 'node:os';

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

import { SPAN_COLUMNS } from '../src/telemetry/ingest/telemetry-columns';
import { startAudit } from '../test/support/audit-test-app';

const REQUESTS = Number(process.env.BENCH_TELEMETRY_REQUESTS ?? 60);
const SPANS_PER_REQUEST = 512;
const IN_FLIGHT = 2;
const COLUMNS = SPAN_COLUMNS.map((c) => c.name).join(', ');

function line(label: string, value: string): void {
  process.stdout.write(`${label.padEnd(52)} ${value}\n`);
}

function perSecond(count: number, ms: number): number {
  return (count * 1_000) / ms;
}

function rate(count: number, ms: number): string {
  return `${Math.round(perSecond(count, ms)).toLocaleString('en-US')} spans/s  (${(ms / 1_000).toFixed(2)} s)`;
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
        await post(url, token, bodies[i]!, type);
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
  await client.query(
    `CREATE TABLE ${schema}.bench_raw_spans (LIKE ${schema}.telemetry_spans INCLUDING DEFAULTS)`,
  );
  await client.query(
    `CREATE INDEX ON ${schema}.bench_raw_spans (tenant_id, start_time DESC, id DESC);
     CREATE INDEX ON ${schema}.bench_raw_spans (tenant_id, trace_id)`,
  );
  const started = performance.now();
  const stream = client.query(copyFrom(`COPY ${schema}.bench_raw_spans (${COLUMNS}) FROM STDIN`));
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
    const protoTenant = randomUUID();
    const jsonTenant = randomUUID();
    const url = `${base}/audit/v1/telemetry/v1/traces`;
    line(
      'machine',
      `${cpus().length} CPUs, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (shared)`,
    );
    line('export requests', `${REQUESTS} × ${SPANS_PER_REQUEST} spans, ${IN_FLIGHT} in flight`);
    // One warm-up request: the first partition check and protobuf root load are not the steady state.
    await post(
      url,
      await agent(randomUUID()),
      ProtobufTraceSerializer.serializeRequest(batches[0]!)!,
      'application/x-protobuf',
    );

    const proto = batches.map((b) => ProtobufTraceSerializer.serializeRequest(b)!);
    const protoMs = await ingest(url, await agent(protoTenant), proto, 'application/x-protobuf');
    const json = batches.map((b) => JsonTraceSerializer.serializeRequest(b)!);
    const jsonMs = await ingest(url, await agent(jsonTenant), json, 'application/json');
    const raw = await rawCopy(client, 'audit', protoTenant);
    if (raw.rows !== spans) {
      throw new Error(`stored ${raw.rows} spans of ${spans}`);
    }
    const rawRate = perSecond(raw.rows, raw.ms);
    line('OTLP/HTTP protobuf ingest (HTTP, decode, COPY)', rate(spans, protoMs));
    line('OTLP/HTTP JSON ingest', rate(spans, jsonMs));
    line('raw COPY FROM STDIN of the same rows', rate(raw.rows, raw.ms));
    line(
      'protobuf ingest ÷ raw COPY (goal ≥ 0.5)',
      (perSecond(spans, protoMs) / rawRate).toFixed(2),
    );
    line('JSON ingest ÷ raw COPY', (perSecond(spans, jsonMs) / rawRate).toFixed(2));
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

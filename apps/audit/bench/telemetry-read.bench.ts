import 'reflect-metadata';

import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/* eslint-disable @typescript-eslint/no-require-imports,
   @typescript-eslint/no-unsafe-call,
   @typescript-eslint/no-unsafe-return, @typescript-eslint/no-explicit-any --
   `BENCH_ROOT` may point at another checkout (a baseline), so its modules are loaded by path. */

// CPU time per span of each step of an OTLP export before COPY (issue 37, A41): decoding, reading
// and guarding the items, and writing their COPY lines. `BENCH_ROOT=<another checkout>` runs that
// checkout's code with this script, for a before/after in one sitting.
const ROOT = process.env.BENCH_ROOT || join(__dirname, '..', '..', '..');
const load = (path: string): any => require(join(ROOT, 'apps', 'audit', 'src', path));
const { decodeRequest } = load('telemetry/otlp/otlp-proto');
const { readSpans } = load('telemetry/otlp/otlp-items');
const { SPAN_COLUMNS } = load('telemetry/ingest/telemetry-columns');
const { field: copyField } = load('ingest/copy-rows');
// A45: a binary export read straight into rows; a checkout without it decodes, then reads.
const wire = (() => {
  try {
    return load('telemetry/otlp/otlp-wire-spans').readSpansWire as (b: Uint8Array) => any;
  } catch {
    return undefined;
  }
})();
const readProtobuf = wire ?? ((b: Uint8Array): any => readSpans(decodeRequest('traces', b)));
const { unacceptableInput } = require(join(ROOT, 'libs', 'http', 'src', 'input-guard'));

const REQUESTS = 20;
const SPANS = 512;

function requests(): { proto: Uint8Array[]; json: Uint8Array[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'bench-agent', 'service.version': '1.4.2' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('bench-agent', '1.0.0');
  const proto: Uint8Array[] = [];
  const json: Uint8Array[] = [];
  for (let r = 0; r < REQUESTS; r += 1) {
    exporter.reset();
    for (let s = 0; s < SPANS; s += 1) {
      const span = tracer.startSpan('execute_tool lookup', {
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
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
    proto.push(ProtobufTraceSerializer.serializeRequest([...exporter.getFinishedSpans()])!);
    json.push(JsonTraceSerializer.serializeRequest([...exporter.getFinishedSpans()])!);
  }
  return { proto, json };
}

/** The least CPU time of seven runs, in µs per span. */
function cpuPerSpan(step: () => void): string {
  let best = Infinity;
  for (let k = 0; k < 7; k += 1) {
    const start = process.cpuUsage();
    step();
    const used = process.cpuUsage(start);
    best = Math.min(best, used.user + used.system);
  }
  return `${(best / (REQUESTS * SPANS)).toFixed(2)} µs/span`;
}

// A47: the store's own writer of COPY lines, where the checkout has one to call; since A49 it
// writes the bytes `pg` sends (a string was encoded by `pg` after it, so it is encoded here).
const storeCopyText = (() => {
  try {
    const store = load('telemetry/ingest/telemetry-store.repository');
    if (store.copyData) {
      return store.copyData as (
        columns: unknown,
        items: any[],
        sender: object,
        at: string,
      ) => Buffer;
    }
    const text = store.copyText as
      ((columns: unknown, items: any[], sender: object, at: string) => string) | undefined;
    return text && ((...args: Parameters<typeof text>): Buffer => Buffer.from(text(...args)));
  } catch {
    return undefined;
  }
})();

function copyLines(items: any[]): string | Buffer {
  const sender = { tenantId: randomUUID(), kind: 'AGENT', id: 'bench' };
  const at = new Date().toISOString();
  if (storeCopyText) {
    return storeCopyText(SPAN_COLUMNS, items, sender, at);
  }
  const json = new Map<object, string>();
  const value = (type: string, v: any): string => {
    if (type !== 'jsonb') {
      return copyField(v === null ? null : String(v));
    }
    if (v === null) {
      return copyField(null);
    }
    // The shared resource and scope written once per export, as the store does since A41.
    const known = process.env.BENCH_ROOT ? undefined : json.get(v);
    const text = known ?? copyField(JSON.stringify(v));
    json.set(v, text);
    return text;
  };
  return items
    .map((item) =>
      SPAN_COLUMNS.map((c: any) => value(c.type, c.value(item, sender, at))).join('\t'),
    )
    .join('\n');
}

function main(): void {
  const { proto, json } = requests();
  const decoded = proto.map((body) => decodeRequest('traces', body));
  const items = proto.map((body) => readProtobuf(body).items);
  const line = (label: string, value: string): void => {
    process.stdout.write(`${label.padEnd(44)} ${value}\n`);
  };
  line('code', ROOT);
  line(
    'machine',
    `${cpus().length} CPUs, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  line(
    'decode protobuf',
    cpuPerSpan(() => proto.forEach((b) => decodeRequest('traces', b))),
  );
  line(
    'parse and guard OTLP/JSON',
    cpuPerSpan(() =>
      json.forEach((b) => unacceptableInput(JSON.parse(Buffer.from(b).toString('utf8')))),
    ),
  );
  line(
    'read and guard the spans',
    cpuPerSpan(() => decoded.forEach((d) => readSpans(d))),
  );
  line(
    'COPY lines',
    cpuPerSpan(() => items.forEach((i) => copyLines(i))),
  );
  line(
    wire ? 'read protobuf straight into rows (A45)' : 'decode and read protobuf',
    cpuPerSpan(() => proto.forEach((b) => readProtobuf(b))),
  );
  line(
    'decode protobuf, again',
    cpuPerSpan(() => proto.forEach((b) => decodeRequest('traces', b))),
  );
  line(
    'all of it, protobuf',
    cpuPerSpan(() => proto.forEach((b) => copyLines(readProtobuf(b).items))),
  );
}

main();

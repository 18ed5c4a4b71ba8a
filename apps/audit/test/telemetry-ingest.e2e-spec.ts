import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Database } from '@agp/database';
import { TestDatabase, TestTokenIssuer, createTestDatabase } from '@agp/testing';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

import { AUDIT_DATABASE } from '../src/database/tokens';
import { TelemetryRetentionService } from '../src/telemetry/telemetry-retention.service';
import { startAudit } from './support/audit-test-app';
import { otlpJsonSpan, otlpJsonTraces, postOtlp } from './support/otlp-requests';

interface StoredSpan {
  tenant_id: string;
  sender_kind: string;
  sender_id: string;
  trace_id: string;
  name: string;
  service_name: string;
  attributes: Record<string, unknown>;
  resource_attributes: Record<string, unknown>;
  scope: Record<string, unknown>;
}

/** Waits out a minute's last seconds: each request counts in the minute it arrives in (A46). */
async function awayFromMinuteEnd(marginMs = 5_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) {
    await new Promise((resolve) => setTimeout(resolve, left + 50));
  }
}

describe('telemetry ingest (OTLP/HTTP, D46, D54)', () => {
  let db: TestDatabase;
  let issuer: TestTokenIssuer;
  let app: NestFastifyApplication;
  let database: Database;
  const tenantId = randomUUID();
  const agentId = randomUUID();
  let agentToken: string;

  beforeAll(async () => {
    db = await createTestDatabase('audit_telemetry_ingest');
    issuer = await TestTokenIssuer.create();
    app = await startAudit({
      databaseUrl: db.url,
      issuer,
      env: { TELEMETRY_ITEMS_PER_MINUTE: '40' },
    });
    database = app.get<Database>(AUDIT_DATABASE);
    agentToken = await issuer.token({
      tenantId,
      subject: agentId,
      kind: 'AGENT',
      scope: 'telemetry:write',
      perms: [],
      name: 'checkout-agent',
    });
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  /** A new agent of `tenant` with a `telemetry:write` token. */
  function senderOf(tenant: string): Promise<string> {
    return issuer.token({
      tenantId: tenant,
      subject: randomUUID(),
      kind: 'AGENT',
      scope: 'telemetry:write',
      perms: [],
    });
  }

  async function storedSpans(traceId: string): Promise<StoredSpan[]> {
    return database.asSystem((tx) =>
      tx.query(`SELECT * FROM ${database.schema}.telemetry_spans WHERE trace_id = $1`, [traceId]),
    );
  }

  it("should store an OTLP/JSON export under the token's tenant and agent, resource and scope attributes kept", async () => {
    const span = otlpJsonSpan();
    const answer = await postOtlp(
      app,
      'traces',
      agentToken,
      JSON.stringify(otlpJsonTraces([span])),
    );

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.json()).toEqual({});
    const [stored] = await storedSpans(span.traceId as string);
    expect(stored).toMatchObject({
      tenant_id: tenantId,
      sender_kind: 'AGENT',
      sender_id: agentId,
      name: 'tool call',
      service_name: 'checkout-agent',
      attributes: { 'gen_ai.tool.name': 'search', retries: 2 },
      resource_attributes: { 'service.name': 'checkout-agent' },
      scope: { name: 'agent-tracer', version: '1.2.0', attributes: {} },
    });
  });

  it('should store binary protobuf as the official serializer writes it, and answer in protobuf', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'proto-agent' }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    provider.getTracer('proto-scope').startActiveSpan('plan', (span) => {
      span.setAttribute('gen_ai.request.model', 'gpt-x');
      span.end();
    });
    const [finished] = exporter.getFinishedSpans();
    const bytes = ProtobufTraceSerializer.serializeRequest([finished])!;

    const answer = await postOtlp(app, 'traces', agentToken, Buffer.from(bytes), {
      'content-type': 'application/x-protobuf',
    });

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/x-protobuf');
    expect(answer.body).toHaveLength(0);
    const [stored] = await storedSpans(finished.spanContext().traceId);
    expect(stored).toMatchObject({
      name: 'plan',
      service_name: 'proto-agent',
      attributes: { 'gen_ai.request.model': 'gpt-x' },
      scope: { name: 'proto-scope' },
    });
  });

  it('should take a gzip body', async () => {
    const span = otlpJsonSpan();
    const body = gzipSync(JSON.stringify(otlpJsonTraces([span])));

    const answer = await postOtlp(app, 'traces', agentToken, body, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });

    expect(answer.status).toBe(200);
    expect(await storedSpans(span.traceId as string)).toHaveLength(1);
  });

  it('should answer a partial success naming the rejected count and why, keeping the valid spans', async () => {
    const good = otlpJsonSpan();
    const bad = otlpJsonSpan({ traceId: good.traceId, spanId: 'not-hex' });

    const answer = await postOtlp(
      app,
      'traces',
      agentToken,
      JSON.stringify(otlpJsonTraces([good, bad])),
    );

    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({
      partialSuccess: {
        rejectedSpans: '1',
        errorMessage: expect.stringContaining('spanId must be 8 bytes'),
      },
    });
    expect(await storedSpans(good.traceId as string)).toHaveLength(1);
  });

  it('should answer 400 to malformed requests in either encoding, storing nothing', async () => {
    const span = otlpJsonSpan();
    const shapes = [
      '{"resourceSpans": ',
      JSON.stringify({ resourceSpans: { not: 'a list' } }),
      JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span, 'a span?'] }] }] }),
    ];
    for (const body of shapes) {
      const answer = await postOtlp(app, 'traces', agentToken, body);
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toMatch(/problem\+json/);
    }
    const garbage = await postOtlp(
      app,
      'traces',
      agentToken,
      Buffer.from([0x0a, 0xff, 0xff, 0x01]),
      {
        'content-type': 'application/x-protobuf',
      },
    );
    expect(garbage.status).toBe(400);
    expect(await storedSpans(span.traceId as string)).toHaveLength(0);
  });

  it('should answer 413 to a body over 4 MiB once decompressed, storing nothing', async () => {
    const spans = Array.from({ length: 3 }, () => otlpJsonSpan());
    const padded = { ...otlpJsonTraces(spans), padding: 'x'.repeat(4 * 1024 * 1024) };

    const answer = await postOtlp(app, 'traces', agentToken, gzipSync(JSON.stringify(padded)), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });

    expect(answer.status).toBe(413);
    expect(await storedSpans(spans[0].traceId as string)).toHaveLength(0);
  });

  it("should store a span that names another tenant and agent as the caller's", async () => {
    const otherTenant = randomUUID();
    const span = otlpJsonSpan({
      attributes: [{ key: 'agp.tenant.id', value: { stringValue: otherTenant } }],
    });
    const body = otlpJsonTraces(
      [span],
      [
        { key: 'agp.tenant.id', value: { stringValue: otherTenant } },
        { key: 'agp.agent.id', value: { stringValue: randomUUID() } },
      ],
    );

    expect((await postOtlp(app, 'traces', agentToken, JSON.stringify(body))).status).toBe(200);

    const stored = await storedSpans(span.traceId as string);
    expect(stored.map((s) => [s.tenant_id, s.sender_id])).toEqual([[tenantId, agentId]]);
    const seenByOther: unknown[] = await database.inTenant(otherTenant, (tx) =>
      tx.query(`SELECT 1 FROM ${database.schema}.telemetry_spans`),
    );
    expect(seenByOther).toEqual([]);
  });

  it("should answer 429 with Retry-After over the tenant's quota, storing nothing of that export", async () => {
    const quotaTenant = randomUUID();
    const token = await senderOf(quotaTenant);
    const first = Array.from({ length: 30 }, () => otlpJsonSpan());
    const second = Array.from({ length: 20 }, () => otlpJsonSpan());

    await awayFromMinuteEnd();
    const accepted = await postOtlp(app, 'traces', token, JSON.stringify(otlpJsonTraces(first)));
    const refused = await postOtlp(app, 'traces', token, JSON.stringify(otlpJsonTraces(second)));

    expect(accepted.status).toBe(200);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const counts: Array<{ n: number }> = await database.inTenant(quotaTenant, (tx) =>
      tx.query(`SELECT count(*)::int AS n FROM ${database.schema}.telemetry_spans`),
    );
    expect(counts[0].n).toBe(30);
  });

  // Four exports against 40 a minute: as many fit as 40 holds, whichever replica takes them. Of 15
  // spans they are inserted (A46), of 32 copied in one query (A49); the count in the same transaction.
  it.each([
    [15, 'A46'],
    [32, 'A49'],
  ])(
    'should keep the quota exact across replicas when exports of %i spans arrive at both at once (%s)',
    async (size) => {
      const second = await startAudit({
        databaseUrl: db.url,
        issuer,
        env: { TELEMETRY_ITEMS_PER_MINUTE: '40' },
      });
      try {
        const quotaTenant = randomUUID();
        const token = await senderOf(quotaTenant);
        const body = (): string =>
          JSON.stringify(otlpJsonTraces(Array.from({ length: size }, () => otlpJsonSpan())));

        await awayFromMinuteEnd();
        const answers = await Promise.all(
          [app, second, app, second].map((replica) => postOtlp(replica, 'traces', token, body())),
        );

        const fit = Math.floor(40 / size);
        expect(answers.map((a) => a.status).sort()).toEqual(
          [200, 200, 200, 200].map((ok, i) => (i < fit ? ok : 429)),
        );
        const [counts]: Array<{ stored: number; counted: number }> = await database.asSystem((tx) =>
          tx.query(
            `SELECT (SELECT count(*)::int FROM ${database.schema}.telemetry_spans WHERE tenant_id = $1) AS stored,
                  (SELECT sum(items)::int FROM ${database.schema}.telemetry_usage WHERE tenant_id = $1) AS counted`,
            [quotaTenant],
          ),
        );
        expect(counts).toEqual({ stored: fit * size, counted: fit * size });
      } finally {
        await second.close();
      }
    },
  );

  it('should refuse a caller with neither a telemetry:write agent token nor TELEMETRY:WRITE', async () => {
    const reader = await issuer.token({
      tenantId,
      subject: randomUUID(),
      perms: ['TELEMETRY:READ'],
    });
    const writer = await issuer.token({
      tenantId,
      subject: randomUUID(),
      perms: ['TELEMETRY:WRITE'],
    });
    const body = JSON.stringify(otlpJsonTraces([otlpJsonSpan()]));

    expect((await postOtlp(app, 'traces', reader, body)).status).toBe(403);
    expect((await postOtlp(app, 'traces', writer, body)).status).toBe(200);
  });

  it('should store OTLP/JSON log records with their body, severity and trace context', async () => {
    const traceId = otlpJsonSpan().traceId as string;
    const body = {
      resourceLogs: [
        {
          resource: {
            attributes: [{ key: 'service.name', value: { stringValue: 'checkout-agent' } }],
          },
          scopeLogs: [
            {
              scope: { name: 'agent-logger' },
              logRecords: [
                {
                  timeUnixNano: String(BigInt(Date.now()) * 1_000_000n),
                  severityNumber: 17,
                  severityText: 'ERROR',
                  body: { stringValue: 'payment tool failed' },
                  traceId,
                  spanId: 'aaaaaaaaaaaaaaaa',
                },
              ],
            },
          ],
        },
      ],
    };

    const answer = await postOtlp(app, 'logs', agentToken, JSON.stringify(body));

    expect(answer.status).toBe(200);
    const rows: Array<Record<string, unknown>> = await database.asSystem((tx) =>
      tx.query(`SELECT * FROM ${database.schema}.telemetry_logs WHERE trace_id = $1`, [traceId]),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        tenant_id: tenantId,
        severity_number: 17,
        severity_text: 'ERROR',
        body: 'payment tool failed',
        span_id: 'aaaaaaaaaaaaaaaa',
      }),
    ]);
  });

  it("should remove spans past the tenant's TRAFFIC retention and keep those of a longer policy (A24)", async () => {
    const keeper = randomUUID();
    const keeperToken = await issuer.token({
      tenantId: keeper,
      subject: randomUUID(),
      perms: ['TELEMETRY:WRITE'],
    });
    const kept = otlpJsonSpan();
    const expired = otlpJsonSpan();
    await postOtlp(app, 'traces', keeperToken, JSON.stringify(otlpJsonTraces([kept])));
    await postOtlp(app, 'traces', agentToken, JSON.stringify(otlpJsonTraces([expired])));
    await database.asSystem((tx) =>
      tx.query(
        `INSERT INTO ${database.schema}.retention_policies (tenant_id, days) VALUES ($1, '{"TRAFFIC": 365}')`,
        [keeper],
      ),
    );

    const run = await app
      .get(TelemetryRetentionService)
      .runOnce(new Date(Date.now() + 100 * 86_400_000));

    expect(run.removedSpans).toBeGreaterThan(0);
    expect(await storedSpans(expired.traceId as string)).toHaveLength(0);
    expect(await storedSpans(kept.traceId as string)).toHaveLength(1);
  });
});

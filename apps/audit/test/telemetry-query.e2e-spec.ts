import { randomBytes, randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TestDatabase, TestTokenIssuer, createTestDatabase } from '@agp/testing';

import { IngestService } from '../src/ingest/ingest.service';
import { TestCaller, auditEnvelope, startAudit } from './support/audit-test-app';
import { otlpJsonSpan, otlpJsonTraces, postOtlp } from './support/otlp-requests';

interface SpanAnswer {
  spanId: string;
  name: string;
  depth: number;
  agentId: string | null;
  status: { code: string };
  serviceName: string;
}

describe('telemetry queries (D46, D54, A26)', () => {
  let db: TestDatabase;
  let issuer: TestTokenIssuer;
  let app: NestFastifyApplication;
  let reader: TestCaller;
  const tenantId = randomUUID();
  const agentId = randomUUID();
  const traceId = randomBytes(16).toString('hex');
  const root = randomBytes(8).toString('hex');
  const child = randomBytes(8).toString('hex');
  const t0 = BigInt(Date.now()) * 1_000_000n;

  beforeAll(async () => {
    db = await createTestDatabase('audit_telemetry_query');
    issuer = await TestTokenIssuer.create();
    app = await startAudit({ databaseUrl: db.url, issuer });
    reader = await TestCaller.create(issuer, tenantId, ['TELEMETRY:READ']);
    const agent = await issuer.token({
      tenantId,
      subject: agentId,
      kind: 'AGENT',
      scope: 'telemetry:write',
      perms: [],
    });
    const at = (ms: number): string => String(t0 + BigInt(ms) * 1_000_000n);
    const spans = [
      otlpJsonSpan({
        traceId,
        spanId: child,
        parentSpanId: root,
        name: 'mcp tools/call',
        startTimeUnixNano: at(10),
        endTimeUnixNano: at(20),
        status: { code: 2, message: 'tool failed' },
      }),
      otlpJsonSpan({
        traceId,
        spanId: root,
        name: 'invoke_agent',
        startTimeUnixNano: at(0),
        endTimeUnixNano: at(30),
        attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }],
      }),
      // The same span again, as an exporter's retry may store it (A23).
      otlpJsonSpan({
        traceId,
        spanId: root,
        name: 'invoke_agent',
        startTimeUnixNano: at(0),
        endTimeUnixNano: at(30),
      }),
    ];
    expect(
      (await postOtlp(app, 'traces', agent, JSON.stringify(otlpJsonTraces(spans)))).status,
    ).toBe(200);
    const logs = {
      resourceLogs: [
        {
          resource: {
            attributes: [{ key: 'service.name', value: { stringValue: 'checkout-agent' } }],
          },
          scopeLogs: [
            {
              logRecords: [
                {
                  timeUnixNano: at(11),
                  severityNumber: 17,
                  body: { stringValue: 'tool failed' },
                  traceId,
                },
                {
                  timeUnixNano: at(12),
                  severityNumber: 9,
                  body: { stringValue: 'retrying' },
                  traceId,
                },
              ],
            },
          ],
        },
      ],
    };
    expect((await postOtlp(app, 'logs', agent, JSON.stringify(logs))).status).toBe(200);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('should answer a trace as its span tree: roots first, children under them, a retried span once', async () => {
    const answer = await reader.call<{
      traceId: string;
      spans: SpanAnswer[];
      isTruncated: boolean;
    }>(app, 'GET', `/audit/v1/telemetry/traces/${traceId.toUpperCase()}`);

    expect(answer.status).toBe(200);
    expect(answer.body.isTruncated).toBe(false);
    expect(answer.body.spans.map((s) => [s.name, s.depth, s.agentId])).toEqual([
      ['invoke_agent', 0, agentId],
      ['mcp tools/call', 1, agentId],
    ]);
  });

  it('should answer 404 for a trace with no span and 400 for an id that is not one', async () => {
    const missing = await reader.call(app, 'GET', `/audit/v1/telemetry/traces/${'ab'.repeat(16)}`);
    const bad = await reader.call(app, 'GET', '/audit/v1/telemetry/traces/not-a-trace');

    expect(missing.status).toBe(404);
    expect(bad.status).toBe(400);
  });

  it('should filter spans by name, status, service, agent and attribute, in both attribute spellings', async () => {
    const names = async (query: string): Promise<string[]> => {
      const answer = await reader.call<{ items: SpanAnswer[] }>(
        app,
        'GET',
        `/audit/v1/telemetry/spans?${query}`,
      );
      expect(answer.status).toBe(200);
      return answer.body.items.map((s) => s.name);
    };

    expect(await names('status=ERROR')).toEqual(['mcp tools/call']);
    expect(await names(`name=invoke_agent&agentId=${agentId}`)).toEqual([
      'invoke_agent',
      'invoke_agent',
    ]);
    expect(await names('service=checkout-agent&attr.gen_ai.operation.name=invoke_agent')).toEqual([
      'invoke_agent',
    ]);
    expect(await names('attr=gen_ai.operation.name%3Dinvoke_agent')).toEqual(['invoke_agent']);
    expect(await names('attr.service.name=elsewhere')).toEqual([]);
    expect(await names(`agentId=${randomUUID()}`)).toEqual([]);
  });

  it('should page spans newest first by cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const answer = await reader.call<{ items: SpanAnswer[]; nextCursor: string | null }>(
        app,
        'GET',
        `/audit/v1/telemetry/spans?traceId=${traceId}&limit=1${query}`,
      );
      seen.push(...answer.body.items.map((s) => s.name));
      cursor = answer.body.nextCursor;
    }

    expect(seen).toEqual(['mcp tools/call', 'invoke_agent', 'invoke_agent']);
  });

  it('should filter logs by least severity and time', async () => {
    const from = new Date(Number(t0 / 1_000_000n) + 11).toISOString();
    const errors = await reader.call<{ items: Array<{ body: unknown }> }>(
      app,
      'GET',
      `/audit/v1/telemetry/logs?traceId=${traceId}&severity=WARN`,
    );
    const later = await reader.call<{ items: Array<{ body: unknown }> }>(
      app,
      'GET',
      `/audit/v1/telemetry/logs?traceId=${traceId}&from=${from}`,
    );

    expect(errors.body.items.map((l) => l.body)).toEqual(['tool failed']);
    expect(later.body.items.map((l) => l.body)).toEqual(['retrying', 'tool failed']);
  });

  it('should list every wrong parameter (D12), and refuse a caller without TELEMETRY:READ', async () => {
    const bad = await reader.call<{ errors: Array<{ field: string }> }>(
      app,
      'GET',
      '/audit/v1/telemetry/spans?status=BROKEN&limit=0&cursor=nope&colour=red',
    );
    const stranger = await TestCaller.create(issuer, tenantId, ['AUDIT:READ']);

    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.field).sort()).toEqual(['colour', 'limit', 'status']);
    expect((await stranger.call(app, 'GET', '/audit/v1/telemetry/spans')).status).toBe(403);
  });

  it("should show another tenant's reader nothing of this tenant's telemetry", async () => {
    const other = await TestCaller.create(issuer, randomUUID(), ['TELEMETRY:READ']);

    const spans = await other.call<{ items: unknown[] }>(
      app,
      'GET',
      `/audit/v1/telemetry/spans?traceId=${traceId}`,
    );
    const trace = await other.call(app, 'GET', `/audit/v1/telemetry/traces/${traceId}`);

    expect(spans.body.items).toEqual([]);
    expect(trace.status).toBe(404);
  });

  it('should link an audit trace to the spans of the W3C trace its hops recorded, and back (A27)', async () => {
    const correlationId = randomUUID();
    await app
      .get(IngestService)
      .ingest([auditEnvelope(tenantId, 'HITL', { traceId, spanId: child }, { correlationId })]);
    const auditor = await TestCaller.create(issuer, tenantId, ['AUDIT:READ']);

    const audit = await auditor.call<{ telemetry: unknown[] }>(
      app,
      'GET',
      `/audit/v1/traces/${correlationId}`,
    );
    const spans = await reader.call<{ correlationIds: string[] }>(
      app,
      'GET',
      `/audit/v1/telemetry/traces/${traceId}`,
    );

    expect(audit.body.telemetry).toEqual([{ traceId, spans: 2 }]);
    expect(spans.body.correlationIds).toEqual([correlationId]);
  });
});

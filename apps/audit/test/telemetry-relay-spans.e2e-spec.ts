import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Database } from '@agp/database';
import { OWNER_QUERIES, OwnerQueries, OwnerUnavailableError } from '@agp/messaging';
import { TestDatabase, TestTokenIssuer, createTestDatabase } from '@agp/testing';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

import { AUDIT_DATABASE } from '../src/database/tokens';
import { startAudit } from './support/audit-test-app';

/** One span of the relay's, as its tenant exporter serializes it (traffic.md T92). */
function relaySpans(claimedTenant: string): { traceId: string; base64: string } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'agp-relay' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const span = provider.getTracer('@agp/relay').startSpan('tools/call lookup_customer', {
    attributes: { 'agp.tenant.id': claimedTenant, 'agp.decision.action': 'ALLOW' },
  });
  span.end();
  const bytes = ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans())!;
  return { traceId: span.spanContext().traceId, base64: Buffer.from(bytes).toString('base64') };
}

/** audit.md A30: the relay's own spans come over the bus and are stored as the named tenant's. */
describe('the relay’s hop spans (TELEMETRY_EXPORT, A30)', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let database: Database;
  let queries: OwnerQueries;

  beforeAll(async () => {
    db = await createTestDatabase('audit_relay_spans');
    app = await startAudit({ databaseUrl: db.url, issuer: await TestTokenIssuer.create() });
    database = app.get<Database>(AUDIT_DATABASE);
    queries = app.get<OwnerQueries>(OWNER_QUERIES);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('should store the spans as the asked tenant’s, sent by the relay, whatever a span claims', async () => {
    const tenantId = randomUUID();
    const { traceId, base64 } = relaySpans(randomUUID());

    // The first export of a day makes its partition; a loaded machine takes its time.
    const answer = await queries.ask('TELEMETRY_EXPORT', { tenantId, spans: base64 }, 30_000);

    expect(answer).toEqual({ accepted: 1, rejected: 0 });
    const rows: Array<Record<string, unknown>> = await database.asSystem((tx) =>
      tx.query(
        `SELECT tenant_id, sender_kind, sender_id, name, service_name
           FROM ${database.schema}.telemetry_spans WHERE trace_id = $1`,
        [traceId],
      ),
    );
    expect(rows).toEqual([
      {
        tenant_id: tenantId,
        sender_kind: 'SERVICE',
        sender_id: 'relay',
        name: 'tools/call lookup_customer',
        service_name: 'agp-relay',
      },
    ]);
  });

  it('should answer a request that is not an export request with an error, storing nothing', async () => {
    const tenantId = randomUUID();

    const asked = queries.ask(
      'TELEMETRY_EXPORT',
      {
        tenantId,
        spans: Buffer.from('not protobuf at all').toString('base64'),
      },
      30_000,
    );

    await expect(asked).rejects.toBeInstanceOf(OwnerUnavailableError);
    const rows: unknown[] = await database.asSystem((tx) =>
      tx.query(`SELECT 1 FROM ${database.schema}.telemetry_spans WHERE tenant_id = $1`, [tenantId]),
    );
    expect(rows).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuditableEventData } from '@agp/contracts';
import { OWNER_QUERIES, OwnerQueries } from '@agp/messaging';
import { deleteNatsStreams } from '@agp/messaging/testing';
import {
  TEST_NATS_URL,
  TestDatabase,
  TestTokenIssuer,
  createTestDatabase,
  uniqueNatsPrefix,
} from '@agp/testing';

import { IngestService } from '../src/ingest/ingest.service';
import { TestCaller, auditEnvelope, startAudit } from './support/audit-test-app';

const AT = Date.parse('2026-12-01T10:00:00.000Z');
const at = (seconds: number): string => new Date(AT + seconds * 1000).toISOString();

/** A decided hop as the relay records it (D33, D40): its bindings' verdicts, its content. */
function hop(content?: string): AuditableEventData {
  return {
    actor: { type: 'AGENT', id: randomUUID() },
    source: { type: 'AGENT', id: randomUUID(), label: 'bot' },
    sink: { type: 'MCP_SERVER', id: randomUUID() },
    protocol: 'MCP',
    action: 'LOG',
    decision: { reasons: ['seen'] },
    details: {
      direction: 'REQUEST',
      method: 'tools/call',
      toolName: 'echo',
      verdicts: [{ bindingId: randomUUID(), groupId: randomUUID(), action: 'LOG' }],
    },
    ...(content ? { content } : {}),
  };
}

/** D49 replay (governance.md G10): RECORDED_HOPS answered from the trail, over NATS. */
describe('recorded hops (RECORDED_HOPS)', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let prefix: string;
  let sut: OwnerQueries;
  const tenantId = randomUUID();
  const otherTenantId = randomUUID();
  const ids: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('audit_recorded_hops');
    const issuer = await TestTokenIssuer.create();
    prefix = uniqueNatsPrefix('audhop');
    app = await startAudit({ databaseUrl: db.url, prefix, issuer });
    const admin = await TestCaller.create(issuer, tenantId, ['AUDIT:ADMIN']);
    await admin.call(app, 'PUT', '/audit/v1/retention', { captureContent: true });
    const mine = [
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', hop('{"a":1}'), { occurredAt: at(1) }),
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', hop(), { occurredAt: at(2) }),
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', hop('{"a":3}'), { occurredAt: at(3) }),
      // A refusal before any policy (no verdicts), another type, a hop after the window.
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { action: 'BLOCK' }, { occurredAt: at(4) }),
      auditEnvelope(tenantId, 'RATE_LIMIT', hop(), { occurredAt: at(5) }),
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', hop('{"a":9}'), { occurredAt: at(90) }),
    ];
    ids.push(...mine.slice(0, 3).map((e) => e.id));
    const theirs = auditEnvelope(otherTenantId, 'COMMUNICATION_AUDIT', hop('{"b":1}'), {
      occurredAt: at(2),
    });
    await app.get(IngestService).ingest([...mine, theirs]);
    sut = app.get<OwnerQueries>(OWNER_QUERIES);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  });

  it('should page the decided hops of the window oldest first, with content only where captured', async () => {
    const window = { tenantId, from: at(0), to: at(60) };

    const first = await sut.ask('RECORDED_HOPS', { ...window, limit: 2 });
    const second = await sut.ask('RECORDED_HOPS', { ...window, limit: 2, ...first?.next });

    expect(first?.hops.map((h) => h.id)).toEqual(ids.slice(0, 2));
    expect(first?.next).toEqual({ afterAt: at(2), afterId: ids[1] });
    expect(second?.hops.map((h) => h.id)).toEqual([ids[2]]);
    expect(second?.next).toBeUndefined();
    expect(first?.hops[0]).toMatchObject({
      protocol: 'MCP',
      direction: 'REQUEST',
      toolName: 'echo',
      action: 'LOG',
      reasons: ['seen'],
      content: '{"a":1}',
      verdicts: [expect.objectContaining({ action: 'LOG' })],
    });
    expect(first?.hops[1]?.content).toBeUndefined();
  });

  it('should answer only the asking tenant’s hops', async () => {
    const answer = await sut.ask('RECORDED_HOPS', {
      tenantId: otherTenantId,
      from: at(0),
      to: at(60),
      limit: 10,
    });

    expect(answer?.hops).toHaveLength(1);
    expect(answer?.hops[0]?.content).toBeUndefined();
  });
});

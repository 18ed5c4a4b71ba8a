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

const person = randomUUID();
const agent = randomUUID();
const server = randomUUID();

/** A hop as the relay records it, with the conversation keys of D44 (conversations.md CV2). */
function hop(
  protocol: 'JSONRPC' | 'MCP',
  direction: string,
  keys: string[],
  content?: string,
): AuditableEventData {
  const [from, to] =
    protocol === 'MCP'
      ? [
          { type: 'AGENT', id: agent },
          { type: 'MCP_SERVER', id: server },
        ]
      : [
          { type: 'USER', id: person },
          { type: 'AGENT', id: agent },
        ];
  return {
    actor: from,
    source: direction === 'REQUEST' ? from : to,
    sink: direction === 'REQUEST' ? to : from,
    protocol,
    action: 'LOG',
    policyIds: [randomUUID()],
    decision: { reasons: ['seen'] },
    contentDigest: 'ab'.repeat(32),
    details: { direction, conversationKeys: keys, a2aContextId: 'ctx-1' },
    ...(content ? { content } : {}),
  };
}

/** D44, D57: the conversation index kept in the ingest's transaction, answered over NATS. */
describe('conversations (CONVERSATIONS, CONVERSATION_HOPS)', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let prefix: string;
  let sut: OwnerQueries;
  const tenantId = randomUUID();
  const otherTenantId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase('audit_conversations');
    const issuer = await TestTokenIssuer.create();
    prefix = uniqueNatsPrefix('audconv');
    app = await startAudit({ databaseUrl: db.url, prefix, issuer });
    const admin = await TestCaller.create(issuer, tenantId, ['AUDIT:ADMIN']);
    await admin.call(app, 'PUT', '/audit/v1/retention', { captureContent: true });
    const a2a = ['A2A_CONTEXT:ctx-1', 'CORRELATION:c1'];
    const mcp = ['MCP_SESSION:s:1', 'CORRELATION:c1'];
    const events = [
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', hop('JSONRPC', 'REQUEST', a2a, '{"q":1}'), {
        occurredAt: at(1),
      }),
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', hop('JSONRPC', 'RESPONSE', a2a), {
        occurredAt: at(2),
      }),
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', hop('MCP', 'REQUEST', mcp), {
        occurredAt: at(3),
      }),
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', hop('MCP', 'RESPONSE', mcp), {
        occurredAt: at(4),
      }),
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', hop('MCP', 'REQUEST', ['CORRELATION:lone']), {
        occurredAt: at(10),
      }),
    ];
    const theirs = auditEnvelope(
      otherTenantId,
      'COMMUNICATION_AUDIT',
      hop('JSONRPC', 'REQUEST', ['A2A_CONTEXT:ctx-1']),
      { occurredAt: at(1) },
    );
    const ingest = app.get(IngestService);
    // Two batches, the second redelivering the first's last event: nothing is counted twice.
    await ingest.ingest(events.slice(0, 2));
    await ingest.ingest([...events.slice(1), theirs]);
    sut = app.get<OwnerQueries>(OWNER_QUERIES);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  });

  it('should group an MCP call under the correlation id of an A2A message into its conversation', async () => {
    const list = await sut.ask('CONVERSATIONS', {
      tenantId,
      families: ['AGENT', 'MCP'],
      limit: 10,
    });

    expect(list?.conversations).toHaveLength(2);
    expect(list?.conversations[1]).toMatchObject({
      keyKind: 'A2A_CONTEXT',
      key: 'ctx-1',
      hopCount: 4,
      startedAt: at(1),
      lastAt: at(4),
      protocols: ['JSONRPC', 'MCP'],
      userIds: [person],
      agentIds: [agent],
      mcpServerIds: [server],
    });
    expect(list?.conversations[0]).toMatchObject({ keyKind: 'CORRELATION', key: 'lone' });
  });

  it('should page newest first and filter by party, time and the families the asker may read', async () => {
    const ask = (extra: object) =>
      sut.ask('CONVERSATIONS', { tenantId, families: ['AGENT', 'MCP'], limit: 10, ...extra });

    const first = await ask({ limit: 1 });
    const second = await ask({ limit: 1, ...first?.next });
    const byUser = await ask({ userId: person, mcpServerId: server });
    const early = await ask({ to: at(5) });
    const late = await ask({ from: at(5) });
    const agentOnly = await ask({ families: ['AGENT'] });

    expect(first?.conversations[0].key).toBe('lone');
    expect(second?.conversations[0].key).toBe('ctx-1');
    expect(byUser?.conversations.map((c) => c.key)).toEqual(['ctx-1']);
    expect(early?.conversations.map((c) => c.key)).toEqual(['ctx-1']);
    expect(late?.conversations.map((c) => c.key)).toEqual(['lone']);
    expect(agentOnly?.conversations.map((c) => c.key)).toEqual(['ctx-1']);
  });

  it('should read a conversation hop by hop, paged, content where captured and the families asked', async () => {
    const id = (await sut.ask('CONVERSATIONS', { tenantId, families: ['AGENT'], limit: 1 }))!
      .conversations[0].id;

    const first = await sut.ask('CONVERSATION_HOPS', {
      tenantId,
      conversationId: id,
      families: ['AGENT', 'MCP'],
      limit: 3,
    });
    const rest = await sut.ask('CONVERSATION_HOPS', {
      tenantId,
      conversationId: id,
      families: ['AGENT', 'MCP'],
      limit: 3,
      ...first?.next,
    });
    const agentOnly = await sut.ask('CONVERSATION_HOPS', {
      tenantId,
      conversationId: id,
      families: ['AGENT'],
      limit: 10,
    });

    expect(first?.hops.map((h) => [h.protocol, h.direction])).toEqual([
      ['JSONRPC', 'REQUEST'],
      ['JSONRPC', 'RESPONSE'],
      ['MCP', 'REQUEST'],
    ]);
    expect(first?.hops[0]).toMatchObject({
      source: { type: 'USER', id: person },
      content: '{"q":1}',
      contentDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
      reasons: ['seen'],
      route: { a2aContextId: 'ctx-1' },
    });
    expect(first?.hops[1].content).toBeUndefined();
    expect(rest?.hops.map((h) => h.direction)).toEqual(['RESPONSE']);
    expect(agentOnly?.hops.map((h) => h.protocol)).toEqual(['JSONRPC', 'JSONRPC']);
  });

  it('should answer nothing of another tenant’s conversations', async () => {
    const mine = (await sut.ask('CONVERSATIONS', { tenantId, families: ['AGENT'], limit: 1 }))!
      .conversations[0].id;

    const theirs = await sut.ask('CONVERSATIONS', {
      tenantId: otherTenantId,
      families: ['AGENT', 'MCP'],
      limit: 10,
    });
    const read = await sut.ask('CONVERSATION_HOPS', {
      tenantId: otherTenantId,
      conversationId: mine,
      families: ['AGENT', 'MCP'],
      limit: 10,
    });

    expect(theirs?.conversations).toHaveLength(1);
    expect(theirs?.conversations[0].id).not.toBe(mine);
    expect(read).toBeNull();
  });
});

import { createHash, randomUUID } from 'node:crypto';
import { AuditEventType, AuditableEventData, EventEnvelope } from '@agp/contracts';

import { toAuditEvent } from './audit-event.mapper';

function envelope(
  type: AuditEventType,
  data: AuditableEventData & Record<string, unknown>,
): EventEnvelope<AuditEventType, AuditableEventData> {
  return {
    id: randomUUID().toUpperCase(),
    type,
    version: 1,
    occurredAt: '2026-03-01T10:00:00.123456Z',
    tenantId: randomUUID(),
    correlationId: 'c-1',
    data,
  };
}

describe(toAuditEvent.name, () => {
  const recordedAt = new Date('2026-03-01T10:00:01.000Z');

  it('should keep only the digest when the tenant does not capture content', () => {
    const event = toAuditEvent(
      envelope('COMMUNICATION_AUDIT', { content: 'hello' }),
      recordedAt,
      false,
    );
    expect(event.content).toBeNull();
    expect(event.contentDigest).toBe(createHash('sha256').update('hello').digest('hex'));
  });

  it('should keep the content when the tenant captures content', () => {
    expect(
      toAuditEvent(envelope('COMMUNICATION_AUDIT', { content: 'hello' }), recordedAt, true).content,
    ).toBe('hello');
  });

  it('should take the producer digest when only a digest was sent', () => {
    const digest = 'a'.repeat(64);
    expect(
      toAuditEvent(envelope('HITL', { contentDigest: digest }), recordedAt, true).contentDigest,
    ).toBe(digest);
  });

  it('should move payload-specific fields into details when a payload carries more than the common ones', () => {
    const event = toAuditEvent(
      envelope('AGENT_LIFECYCLE', { agentId: 'x', change: 'CREATED', details: { note: 'n' } }),
      recordedAt,
      false,
    );
    expect(event.details).toEqual({ agentId: 'x', change: 'CREATED', note: 'n' });
    expect(event.family).toBe('LIFECYCLE');
  });

  it('should store times to the millisecond and ids in lower case when the envelope has more precision', () => {
    const source = envelope('RATE_LIMIT', {
      actor: { type: 'AGENT', id: 'a' },
      sink: { type: 'MCP_SERVER', label: 'Files' },
    });
    const event = toAuditEvent(source, recordedAt, false);
    expect(event.occurredAt).toBe('2026-03-01T10:00:00.123Z');
    expect(event.id).toBe(source.id.toLowerCase());
    expect(event.actor).toEqual({ type: 'AGENT', id: 'a', label: null });
    expect(event.sink).toEqual({ type: 'MCP_SERVER', id: null, name: 'Files' });
    expect(event.source).toBeNull();
  });

  it('should take an administrative change target as its sink when the producer named no sink', () => {
    const target = { kind: 'POLICY_GROUP', id: 'g-1', name: 'pii' };

    const lifecycle = toAuditEvent(
      envelope('POLICY_LIFECYCLE', { details: { target, fields: ['name'], changes: {} } }),
      recordedAt,
      false,
    );
    const adminChange = toAuditEvent(
      envelope('ADMIN_CHANGE', {
        change: 'UPDATED',
        target: { kind: 'CHANNEL', id: 'c-1' },
        fields: [],
        changes: {},
      }),
      recordedAt,
      false,
    );
    const named = toAuditEvent(
      envelope('AGENT_LIFECYCLE', { sink: { type: 'AGENT', id: 'a-1' }, details: { target } }),
      recordedAt,
      false,
    );

    expect(lifecycle.sink).toEqual({ type: 'POLICY_GROUP', id: 'g-1', name: 'pii' });
    expect(adminChange.sink).toEqual({ type: 'CHANNEL', id: 'c-1', name: null });
    expect(adminChange.details).toEqual(
      expect.objectContaining({ change: 'UPDATED', target: { kind: 'CHANNEL', id: 'c-1' } }),
    );
    expect(named.sink).toEqual({ type: 'AGENT', id: 'a-1', name: null });
  });
});

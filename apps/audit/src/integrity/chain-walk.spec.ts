import { randomUUID } from 'node:crypto';

import { AuditEvent, ChainedEvent } from '../events/audit-event.types';
import { GENESIS_HASH, chainHash } from './chain-hash';
import { ChainWalk } from './chain-walk';

function chain(length: number): ChainedEvent[] {
  const events: ChainedEvent[] = [];
  let previous = GENESIS_HASH;
  for (let seq = 1; seq <= length; seq += 1) {
    const event: AuditEvent = {
      id: randomUUID(),
      tenantId: 't',
      family: 'TRAFFIC',
      seq,
      occurredAt: '2026-01-01T00:00:00.000Z',
      recordedAt: `2026-01-01T00:00:0${seq}.000Z`,
      eventType: 'COMMUNICATION_AUDIT',
      protocol: null,
      action: 'LOG',
      actor: null,
      source: null,
      sink: null,
      policyIds: [],
      decision: null,
      correlationId: null,
      traceId: null,
      spanId: null,
      summary: `event ${seq}`,
      details: null,
      content: null,
      contentDigest: null,
    };
    previous = chainHash(previous, event);
    events.push({ ...event, hash: previous });
  }
  return events;
}

describe(ChainWalk.name, () => {
  it('should accept every event when the chain is whole', () => {
    const sut = new ChainWalk(0, GENESIS_HASH, new Set([3]));
    expect(chain(5).every((event) => sut.accept(event))).toBe(true);
    expect(sut.broken).toBeUndefined();
    expect(sut.checked).toBe(5);
    expect(sut.hashesAt.has(3)).toBe(true);
  });

  it('should report HASH_MISMATCH at the event when a field changed', () => {
    const events = chain(5);
    const changed = { ...events[2], summary: 'edited' } as ChainedEvent;
    const sut = new ChainWalk(0, GENESIS_HASH, new Set());
    [events[0], events[1], changed, events[3]].forEach((event) => event && sut.accept(event));
    expect(sut.broken).toEqual({
      reason: 'HASH_MISMATCH',
      eventId: changed.id,
      recordedAt: changed.recordedAt,
    });
  });

  it('should report SEQUENCE_GAP at the next event when one is missing', () => {
    const events = chain(4);
    const sut = new ChainWalk(0, GENESIS_HASH, new Set());
    [events[0], events[2]].forEach((event) => event && sut.accept(event));
    expect(sut.broken?.reason).toBe('SEQUENCE_GAP');
    expect(sut.broken?.eventId).toBe(events[2]?.id);
  });

  it('should report DUPLICATE_SEQUENCE when two events share a place', () => {
    const events = chain(3);
    const sut = new ChainWalk(0, GENESIS_HASH, new Set());
    [events[0], events[1], { ...events[1], id: randomUUID() } as ChainedEvent].forEach(
      (event) => event && sut.accept(event),
    );
    expect(sut.broken?.reason).toBe('DUPLICATE_SEQUENCE');
  });
});

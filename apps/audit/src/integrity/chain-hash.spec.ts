import { AuditEvent } from '../events/audit-event.types';
import { canonicalJson } from './canonical-json';
import { canonicalEvent } from './chain-hash';

const EVENT: AuditEvent = {
  id: '7d3c4a4e-2f0b-4c8e-9a51-0b6f2d1e9c77',
  tenantId: '1b9a5f0e-3c1d-4e5f-8a7b-6c5d4e3f2a1b',
  family: 'TRAFFIC',
  seq: 42,
  occurredAt: '2026-11-22T05:00:00.123Z',
  recordedAt: '2026-11-22T05:00:00.456Z',
  eventType: 'COMMUNICATION_AUDIT',
  protocol: 'MCP',
  action: 'MASK',
  actor: { type: 'AGENT', id: 'agent-1', label: 'Bench "agent"' },
  source: { type: 'AGENT', id: 'agent-1', name: null },
  sink: { type: 'MCP_SERVER', id: 'mcp-1', name: 'Tools' },
  policyIds: ['0a7c1a52-6d2e-4c43-9b0e-3f8d7c6b5a49'],
  decision: { reasons: ['pii'], masks: [{ path: '$.to', pattern: '[^@]+@' }] },
  correlationId: 'c-1',
  traceId: null,
  spanId: null,
  summary: 'tools/call é\n\u2028 😀',
  details: { method: 'tools/call', 10: 'ten', 2: { z: [1, { b: undefined, a: null }] } },
  content: null,
  contentDigest: 'a'.repeat(64),
};

describe(canonicalEvent.name, () => {
  it('should write what canonicalJson writes when the event is as stored', () => {
    expect(canonicalEvent(EVENT)).toBe(canonicalJson(EVENT, 'hash'));
  });

  it('should leave the hash out when the event was read back with it', () => {
    expect(canonicalEvent({ ...EVENT, hash: Buffer.alloc(32, 1) })).toBe(canonicalJson(EVENT));
  });

  it('should write what canonicalJson writes when members are undefined, null or objects elsewhere', () => {
    const variants: Array<Partial<Record<keyof AuditEvent, unknown>>> = [
      { details: null, decision: null, actor: null },
      { summary: undefined, content: 'x' },
      { policyIds: [], details: { '': 1, 'b\u0000': [undefined] } },
      { seq: 9_007_199_254_740_991, occurredAt: '' },
    ];
    for (const variant of variants) {
      const event = { ...EVENT, ...variant } as AuditEvent;
      expect(canonicalEvent(event)).toBe(canonicalJson(event, 'hash'));
    }
  });

  it('should take the general path when the event has a member of its own', () => {
    const { content: _content, ...withoutContent } = EVENT;
    const event = { ...withoutContent, extra: 1 } as unknown as AuditEvent;
    expect(canonicalEvent(event)).toBe(canonicalJson(event, 'hash'));
    expect(canonicalEvent(event)).toContain('"extra":1');
  });
});

describe('canonicalEvent on events as the ingest and the walkers build them', () => {
  it('should write what canonicalJson writes when every member is flat and sorted, or a Date hides in details', () => {
    const flat = {
      ...EVENT,
      actor: { id: 'agent-1', label: null, type: 'AGENT' },
      source: { id: null, name: null, type: 'USER' },
      sink: null,
      decision: null,
      details: { method: 'tools/call', size: 3 },
    } as AuditEvent;
    expect(canonicalEvent(flat)).toBe(canonicalJson(flat, 'hash'));
    const dated = {
      ...flat,
      details: { at: new Date(0), nested: { b: 1, a: [new Date(1)] } },
    } as AuditEvent;
    expect(canonicalEvent(dated)).toBe(canonicalJson(dated, 'hash'));
  });
});

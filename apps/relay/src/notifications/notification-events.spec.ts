import { randomUUID } from 'node:crypto';

import { EventEnvelope } from '@agp/contracts';

import { meetsSeverity, noticeOf } from './notification-events';

const BASE = 'https://agp.example.com';

function envelope(type: string, data: Record<string, unknown>): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurredAt: new Date().toISOString(),
    tenantId: randomUUID(),
    correlationId: randomUUID(),
    data,
  };
}

describe('noticeOf', () => {
  it('should make a hold notice with the console link and ids only when a hold is new', () => {
    const hitlRequestId = randomUUID();
    const policyId = randomUUID();

    const sut = noticeOf(
      envelope('HITL', {
        protocol: 'MCP',
        policyIds: [policyId],
        summary: 'MCP tools/call transfer: held for human review',
        content: 'pay 1,000,000 to account 42',
        decision: { reasons: ['contains account 42'] },
        details: { hitlRequestId, status: 'PENDING', direction: 'REQUEST', toolName: 'transfer' },
      }),
      BASE,
    );

    expect(sut).toEqual({
      event: 'HITL_REQUEST_CREATED',
      link: `${BASE}/review/${hitlRequestId}`,
      data: { hitlRequestId, protocol: 'MCP', direction: 'REQUEST', policyIds: [policyId] },
    });
    expect(JSON.stringify(sut)).not.toMatch(/account 42|transfer/);
  });

  it('should make no notice when a HITL event is not a new hold', () => {
    const details = { hitlRequestId: randomUUID(), status: 'APPROVED' };

    expect(noticeOf(envelope('HITL', { details }), BASE)).toBeUndefined();
    expect(noticeOf(envelope('HITL', { details: {} }), BASE)).toBeUndefined();
  });

  it('should make an alert notice with its severity and link, without its summary', () => {
    const alertId = randomUUID();
    const subjectId = randomUUID();

    const sut = noticeOf(
      envelope('MONITOR_ALERT_TRIGGERED', {
        alertId,
        findingId: randomUUID(),
        detector: 'NOVEL_TOOL_CALL',
        severity: 'HIGH',
        direction: 'SPIKE',
        subject: { type: 'AGENT', id: subjectId },
        detectedAt: '2026-12-07T06:00:00.000Z',
        summary: 'agent "transfer-everything" called a new tool',
        evidence: {},
      }),
      BASE,
    );

    expect(sut).toEqual({
      event: 'ALERT_RAISED',
      severity: 'HIGH',
      link: `${BASE}/alerts/${alertId}`,
      data: {
        alertId,
        severity: 'HIGH',
        detector: 'NOVEL_TOOL_CALL',
        subjectType: 'AGENT',
        subjectId,
        detectedAt: '2026-12-07T06:00:00.000Z',
      },
    });
  });

  it.each(['AGENT_LIFECYCLE', 'MCP_LIFECYCLE', 'LLM_LIFECYCLE', 'GOVERNANCE_LIFECYCLE'])(
    'should make a kill switch notice from %s only when a switch is engaged',
    (type) => {
      const killSwitchId = randomUUID();
      const targetId = randomUUID();
      const details = { killSwitchId, scope: 'AGENT', targetId, reason: 'the reason is text' };

      const engaged = noticeOf(
        envelope(type, { details: { ...details, change: 'KILL_SWITCH_ENGAGED' } }),
        BASE,
      );
      const released = noticeOf(
        envelope(type, { details: { ...details, change: 'KILL_SWITCH_RELEASED' } }),
        BASE,
      );
      const other = noticeOf(envelope(type, { details: { change: 'UPDATED' } }), BASE);

      expect(engaged).toEqual({
        event: 'KILL_SWITCH_ENGAGED',
        data: { killSwitchId, scope: 'AGENT', targetId },
      });
      expect(released).toBeUndefined();
      expect(other).toBeUndefined();
    },
  );
});

describe('meetsSeverity', () => {
  it('should pass alerts at or above the threshold and everything without one', () => {
    expect(meetsSeverity('HIGH', 'HIGH')).toBe(true);
    expect(meetsSeverity('CRITICAL', 'HIGH')).toBe(true);
    expect(meetsSeverity('MEDIUM', 'HIGH')).toBe(false);
    expect(meetsSeverity('LOW', null)).toBe(true);
    expect(meetsSeverity(undefined, 'CRITICAL')).toBe(true);
  });
});

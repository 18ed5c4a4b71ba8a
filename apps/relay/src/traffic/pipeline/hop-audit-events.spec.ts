import { HopDecision } from '../../decisions/decision.types';
import {
  decidedHopEvents,
  detectionEventType,
  digestOf,
  refusedHopEvent,
} from './hop-audit-events';
import { Hop } from './hop.types';

const hop: Hop = {
  tenantId: '7d1c1f1e-3c1a-4c55-9a8e-2c5d0b0f0a01',
  correlationId: '0e7d8b52-6f43-4e63-8a9f-5b6a3f3b2c11',
  protocol: 'MCP',
  direction: 'REQUEST',
  source: { type: 'AGENT', id: 'a1', name: 'billing' },
  sink: { type: 'MCP_SERVER', id: 's1', name: 'crm' },
  agent: { type: 'AGENT', id: 'a1', name: 'billing' },
  method: 'tools/call',
  tool: 'lookup',
  message: { json: { ssn: '078-05-1120' }, text: '078-05-1120' },
  captureContent: false,
};

const masked: HopDecision = {
  action: 'MASK',
  isBlocked: false,
  failOpen: false,
  reasons: ['SSN'],
  mask: [{ path: 'ssn' }],
  detections: [
    { kind: 'PII', label: 'SSN', path: 'ssn' },
    { kind: 'REGEX', label: 'card', path: 'ssn' },
  ],
  maskedFields: ['ssn'],
  bindings: [
    {
      bindingId: 'b1',
      bindingLevel: 'AGENT',
      priority: 1,
      groupId: '5b9f0a7e-1d2c-4b3a-9e8f-7a6b5c4d3e2f',
      groupName: 'pii',
      groupVersion: '1',
      action: 'MASK',
      reasons: ['SSN'],
      mask: [],
      detections: [],
    },
  ],
  maskedMessage: { json: { ssn: '[MASKED:MASKED]' }, text: '[MASKED:MASKED]' },
};

describe('hop audit events', () => {
  it('should add VALIDATION_RESULT naming the hop event and the invalid targets, without an action (GR24)', () => {
    const validation = {
      valid: false,
      results: [
        {
          target: 'TOOL_ARGUMENTS' as const,
          schema: 'inputSchema',
          path: 'params.arguments',
          valid: false,
          errors: [{ path: '/ssn', keyword: 'pattern', message: 'must match pattern "^x$"' }],
        },
      ],
    };

    const events = decidedHopEvents({ ...hop, validation }, masked, 1);
    const checked = events.filter((e) => e.type === 'VALIDATION_RESULT');

    expect(checked).toHaveLength(1);
    expect(checked[0].data).toMatchObject({
      summary: 'MCP tools/call lookup billing → crm: invalid TOOL_ARGUMENTS',
      details: { hopEventId: events[0].id, validation },
    });
    expect(checked[0].data.action).toBeUndefined();
    expect(events[0].data.details).toMatchObject({ validation });
    expect(decidedHopEvents(hop, masked, 1).map((e) => e.type)).not.toContain('VALIDATION_RESULT');
  });

  it('should record a passing validation on the hop event only, without VALIDATION_RESULT (GR31)', () => {
    const validation = {
      valid: true,
      results: [
        {
          target: 'TOOL_ARGUMENTS' as const,
          schema: 'inputSchema',
          path: 'params.arguments',
          valid: true,
          errors: [],
        },
      ],
    };

    const events = decidedHopEvents({ ...hop, validation }, masked, 1);

    expect(events.map((e) => e.type)).not.toContain('VALIDATION_RESULT');
    expect(events[0].type).toBe('COMMUNICATION_AUDIT');
    expect(events[0].data.details).toMatchObject({ validation });
    expect(decidedHopEvents(hop, masked, 1)[0].data.details).not.toHaveProperty('validation');
  });

  it.each([
    ['PROMPT_INJECTION', 'PROMPT_INJECTION_DETECTION'],
    ['secret', 'SECRET_DETECTION'],
    ['PII', 'PII_DETECTION'],
    ['REGEX', 'REGEX_DETECTION'],
    ['anything-else', 'REGEX_DETECTION'],
  ])('should map the detection kind %s to %s (D25)', (kind, type) => {
    expect(detectionEventType(kind)).toBe(type);
  });

  it('should record the hop with its verdicts and digest but no content when capture is off', () => {
    const [communication, ...detections] = decidedHopEvents(hop, masked, 0.42);

    expect(communication).toMatchObject({
      type: 'COMMUNICATION_AUDIT',
      tenantId: hop.tenantId,
      correlationId: hop.correlationId,
      data: {
        action: 'MASK',
        protocol: 'MCP',
        policyIds: ['5b9f0a7e-1d2c-4b3a-9e8f-7a6b5c4d3e2f'],
        contentDigest: digestOf(hop.message.json),
        details: { direction: 'REQUEST', toolName: 'lookup', maskedFields: ['ssn'] },
      },
    });
    expect(communication.data.content).toBeUndefined();
    expect(detections.map((e) => e.type)).toEqual(['PII_DETECTION', 'REGEX_DETECTION']);
  });

  it('should keep the masked content, never the original, when the tenant captures content (D40)', () => {
    const [communication] = decidedHopEvents({ ...hop, captureContent: true }, masked, 1);

    expect(communication.data.content).toBe('{"ssn":"[MASKED:MASKED]"}');
  });

  it('should record a refusal with its reason', () => {
    const sut = refusedHopEvent(hop, {
      type: 'SKILL_RESTRICTION',
      action: 'BLOCK',
      reason: 'not granted',
    });

    expect(sut).toMatchObject({
      type: 'SKILL_RESTRICTION',
      data: { action: 'BLOCK', decision: { reasons: ['not granted'] } },
    });
  });
});

import { randomUUID } from 'node:crypto';
import { AuditEventType, AuditableEventData, EventEnvelope } from '@agp/contracts';

import { auditEnvelope } from './audit-test-app';

export interface SeededEvent {
  envelope: EventEnvelope<AuditEventType, AuditableEventData>;
  id: string;
}

export const BASE_TIME = Date.parse('2026-01-10T12:00:00.000Z');

/**
 * A small, varied set of one tenant's events: every filter of the event list picks a known subset.
 * Times are one minute apart from BASE_TIME, oldest first.
 */
export function variedEvents(
  tenantId: string,
  policyId: string,
  agentId: string,
  mcpId: string,
  correlationId: string,
): SeededEvent[] {
  const specs: Array<[AuditEventType, AuditableEventData, string?]> = [
    [
      'COMMUNICATION_AUDIT',
      {
        protocol: 'MCP',
        action: 'LOG',
        actor: { type: 'AGENT', id: agentId, label: 'Agent A' },
        source: { type: 'AGENT', id: agentId, label: 'Agent A' },
        sink: { type: 'MCP_SERVER', id: mcpId, label: 'Files' },
        policyIds: [policyId],
        summary: 'tools/call read_file',
      },
      correlationId,
    ],
    [
      'COMMUNICATION_AUDIT',
      {
        protocol: 'MCP',
        action: 'BLOCK',
        actor: { type: 'AGENT', id: agentId },
        source: { type: 'AGENT', id: agentId },
        sink: { type: 'MCP_SERVER', id: mcpId },
        policyIds: [policyId],
        summary: 'blocked',
        decision: {
          reasons: ['prompt injection'],
          detections: [{ kind: 'REGEX', label: 'PI', path: 'params' }],
          masks: [],
        },
      },
      correlationId,
    ],
    [
      'PII_DETECTION',
      {
        protocol: 'JSONRPC',
        action: 'MASK',
        actor: { type: 'USER', id: 'user-1', label: 'Ann' },
        source: { type: 'USER', id: 'user-1' },
        sink: { type: 'AGENT', id: agentId },
        summary: 'ssn masked',
      },
      correlationId,
    ],
    [
      'LLM_GATEWAY_CALL',
      {
        protocol: 'REST',
        action: 'WARN',
        actor: { type: 'AGENT', id: 'agent-2' },
        source: { type: 'AGENT', id: 'agent-2' },
        sink: { type: 'LLM_GATEWAY', id: 'gw-1' },
      },
    ],
    [
      'GOVERNANCE_LIFECYCLE',
      {
        actor: { type: 'USER', id: 'user-2', label: 'Bob' },
        summary: 'review recorded',
        details: { change: 'CREATED' },
      },
    ],
    [
      'RATE_LIMIT',
      {
        protocol: 'GRPC',
        action: 'ERROR',
        actor: { type: 'SERVICE', id: 'svc-1' },
        source: { type: 'CHANNEL', id: 'ch-1' },
        sink: { type: 'AGENT', id: agentId },
      },
    ],
  ];
  return specs.map(([type, data, correlation], index) => {
    const envelope = auditEnvelope(tenantId, type, data, {
      occurredAt: new Date(BASE_TIME + index * 60_000).toISOString(),
      correlationId: correlation ?? randomUUID(),
    });
    return { envelope, id: envelope.id };
  });
}

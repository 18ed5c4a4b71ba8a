import { randomUUID } from 'node:crypto';

import { AuditableEventData } from '@agp/contracts';

import { TrafficEvent, TrafficEventType, countersOf } from './rollup-counters';

const tenantId = randomUUID();
const agent = randomUUID();
const mcp = randomUUID();
const policyA = randomUUID();
const policyB = randomUUID();
const gateway = randomUUID();
const provider = randomUUID();

function event(type: TrafficEventType, data: AuditableEventData): TrafficEvent {
  return { type, tenantId, occurredAt: '2026-01-07T10:15:42.123Z', data };
}

function metricsOf(e: TrafficEvent): string[] {
  return countersOf(e)
    .counts.map(
      (c) =>
        `${c.subjectType}:${c.metric}${c.subjectType === 'POLICY' ? `:${c.subjectId === policyA ? 'A' : 'B'}` : ''}`,
    )
    .sort();
}

describe('countersOf', () => {
  it('should count a blocked tool call for the tenant, each policy and each party when it is a request', () => {
    const counted = metricsOf(
      event('COMMUNICATION_AUDIT', {
        action: 'BLOCK',
        policyIds: [policyA, policyB],
        source: { type: 'AGENT', id: agent },
        sink: { type: 'MCP_SERVER', id: mcp },
        details: { toolName: 'delete_repo' },
      }),
    );
    expect(counted).toEqual(
      [
        'TENANT:REQUESTS',
        'TENANT:BLOCKS',
        'TENANT:TOOL_CALLS',
        'POLICY:INVOCATIONS:A',
        'POLICY:BLOCKS:A',
        'POLICY:INVOCATIONS:B',
        'POLICY:BLOCKS:B',
        'AGENT:REQUESTS',
        'MCP_SERVER:REQUESTS',
        'MCP_SERVER:TOOL_CALLS',
      ].sort(),
    );
  });

  it('should put every count in the minute of the event', () => {
    const { counts } = countersOf(
      event('COMMUNICATION_AUDIT', { source: { type: 'AGENT', id: agent } }),
    );
    expect(new Set(counts.map((c) => c.minute.toISOString()))).toEqual(
      new Set(['2026-01-07T10:15:00.000Z']),
    );
  });

  it('should count an unattributed warning when no policy is named', () => {
    expect(metricsOf(event('COMMUNICATION_AUDIT', { action: 'WARN' }))).toEqual(
      ['TENANT:REQUESTS', 'TENANT:WARNS', 'TENANT:UNATTRIBUTED_WARNS'].sort(),
    );
  });

  it('should attribute an evaluation error to its policy and an upstream error to nobody', () => {
    expect(
      metricsOf(event('COMMUNICATION_AUDIT', { action: 'ERROR', policyIds: [policyA] })),
    ).toContain('POLICY:ERRORS:A');
    expect(
      metricsOf(event('COMMUNICATION_AUDIT', { action: 'ERROR', policyIds: [policyA] })),
    ).not.toContain('TENANT:UNATTRIBUTED_ERRORS');
    const upstream = metricsOf(
      event('COMMUNICATION_AUDIT', {
        action: 'LOG',
        sink: { type: 'MCP_SERVER', id: mcp },
        details: { outcome: 'ERROR' },
      }),
    );
    expect(upstream).toEqual(
      expect.arrayContaining(['TENANT:ERRORS', 'TENANT:UNATTRIBUTED_ERRORS', 'MCP_SERVER:ERRORS']),
    );
  });

  it('should not count a response as a request when the message is the answer', () => {
    const counted = metricsOf(
      event('COMMUNICATION_AUDIT', {
        source: { type: 'MCP_SERVER', id: mcp },
        details: { direction: 'RESPONSE', toolName: 'x' },
      }),
    );
    expect(counted).toEqual([]);
  });

  it('should count the call outcome of an LLM call for the gateway and the provider', () => {
    const counted = metricsOf(
      event('LLM_GATEWAY_CALL', {
        action: 'ERROR',
        sink: { type: 'LLM_GATEWAY', id: gateway },
        details: { llmProviderId: provider },
      }),
    );
    expect(counted).toEqual(
      [
        'TENANT:LLM_CALLS',
        'LLM_GATEWAY:LLM_CALLS',
        'LLM_GATEWAY:ERRORS',
        'LLM_PROVIDER:LLM_CALLS',
        'LLM_PROVIDER:ERRORS',
      ].sort(),
    );
  });

  it('should count a failover for the tenant and the gateway', () => {
    expect(
      metricsOf(event('LLM_GATEWAY_FAILOVER', { details: { llmGatewayId: gateway } })),
    ).toEqual(['LLM_GATEWAY:LLM_FAILOVERS', 'TENANT:LLM_FAILOVERS'].sort());
  });

  it('should count a failed call and an error for the provider a failover skipped', () => {
    expect(
      metricsOf(
        event('LLM_GATEWAY_FAILOVER', {
          sink: { type: 'LLM_GATEWAY', id: gateway },
          details: { llmGatewayId: gateway, llmProviderId: provider },
        }),
      ),
    ).toEqual(
      [
        'LLM_GATEWAY:LLM_FAILOVERS',
        'LLM_PROVIDER:ERRORS',
        'LLM_PROVIDER:LLM_CALLS',
        'TENANT:LLM_FAILOVERS',
      ].sort(),
    );
  });

  it('should record a tool sighting when an MCP tool is called', () => {
    const { sightings } = countersOf(
      event('COMMUNICATION_AUDIT', {
        sink: { type: 'MCP_SERVER', id: mcp },
        details: { toolName: 'read_file' },
      }),
    );
    expect(sightings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ observation: 'TOOL_CALL', subjectId: mcp, key: 'read_file' }),
      ]),
    );
  });

  it('should ignore a party when its id is not a uuid', () => {
    expect(
      metricsOf(event('COMMUNICATION_AUDIT', { source: { type: 'AGENT', id: 'agent-7' } })),
    ).toEqual(['TENANT:REQUESTS']);
  });
});

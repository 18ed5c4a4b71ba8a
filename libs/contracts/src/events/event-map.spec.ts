import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { AgentLifecycleData } from '../tenant-auth/agent-lifecycle.event';
import { AuditableEventData } from './auditable-event.data';
import { EVENT_TYPES, isAuditEventType, payloadClassOf } from './event-map';

describe('event map', () => {
  it('should list every audit event type and the lifecycle types once', () => {
    expect(EVENT_TYPES).toContain('PROMPT_INJECTION_DETECTION');
    expect(EVENT_TYPES).toContain('TENANT_LIFECYCLE');
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
    expect(isAuditEventType('TENANT_LIFECYCLE')).toBe(false);
  });

  it('should give the specific payload class when a type has one', () => {
    expect(payloadClassOf('AGENT_LIFECYCLE')).toBe(AgentLifecycleData);
    expect(payloadClassOf('HITL')).toBe(AuditableEventData);
  });

  it('should reject a payload when a field breaks its contract', () => {
    const data = plainToInstance(AgentLifecycleData, {
      agentId: 'nope',
      name: 'a',
      change: 'EATEN',
    });
    const fields = validateSync(data).map((e) => e.property);
    expect(fields).toEqual(expect.arrayContaining(['agentId', 'change', 'status', 'permissions']));
  });
});

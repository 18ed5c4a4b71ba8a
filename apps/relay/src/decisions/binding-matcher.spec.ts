import { BindingScope, bindingApplies } from './binding-matcher';
import { EndpointRef } from './decision.types';

describe('bindingApplies', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  const agentA: EndpointRef = { type: 'AGENT', id: 'a' };
  const agentB: EndpointRef = { type: 'AGENT', id: 'b' };
  const channel: EndpointRef = { type: 'CHANNEL', id: 'c' };
  const server: EndpointRef = { type: 'MCP_SERVER', id: 'm' };
  const scope = (s: Partial<BindingScope>): BindingScope => ({
    bindingLevel: 'TENANT',
    validFrom: 0,
    ...s,
  });

  it('should match every hop when the binding is at tenant level', () => {
    expect(bindingApplies(scope({}), agentA, server, now)).toBe(true);
  });

  it('should match traffic from or to the agent when the binding is at agent level', () => {
    const sut = scope({ bindingLevel: 'AGENT', agentId: 'a' });
    expect(bindingApplies(sut, agentA, server, now)).toBe(true);
    expect(bindingApplies(sut, agentB, agentA, now)).toBe(true);
    expect(bindingApplies(sut, agentB, server, now)).toBe(false);
  });

  it('should match only the source to sink direction when the binding is a subscription', () => {
    const sut = scope({ bindingLevel: 'SUBSCRIPTION', sourceAgentId: 'a', sinkAgentId: 'b' });
    expect(bindingApplies(sut, agentA, agentB, now)).toBe(true);
    expect(bindingApplies(sut, agentB, agentA, now)).toBe(false);
  });

  it('should match channel traffic when the binding is at channel or channel subscription level', () => {
    expect(
      bindingApplies(scope({ bindingLevel: 'CHANNEL', channelId: 'c' }), channel, agentA, now),
    ).toBe(true);
    const sub = scope({ bindingLevel: 'CHANNEL_SUBSCRIPTION', channelId: 'c', agentId: 'a' });
    expect(bindingApplies(sub, channel, agentA, now)).toBe(true);
    expect(bindingApplies(sub, agentA, channel, now)).toBe(true);
    expect(bindingApplies(sub, channel, agentB, now)).toBe(false);
  });

  it('should match nothing when now is outside the binding window', () => {
    expect(bindingApplies(scope({ validFrom: now + 1 }), agentA, server, now)).toBe(false);
    expect(bindingApplies(scope({ validTo: now }), agentA, server, now)).toBe(false);
    expect(bindingApplies(scope({ validTo: now + 1 }), agentA, server, now)).toBe(true);
  });
});

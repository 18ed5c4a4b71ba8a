import { RecordedHop } from '@agp/contracts';

import { BindingResult } from '../decisions/decision.types';
import { fateOf, judgeRecorded, matchesFilters } from './recorded-hop-judgement';
import { ReplayPlacement } from './replay.types';

const AGENT = '11111111-1111-4111-8111-111111111111';
const SERVER = '22222222-2222-4222-8222-222222222222';
const TENANT = { id: '33333333-3333-4333-8333-333333333333' };
const EVERYWHERE: ReplayPlacement = { bindingLevel: 'TENANT', replaces: ['e1'] };

function hop(overrides: Partial<RecordedHop> = {}): RecordedHop {
  const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_config' } };
  return {
    id: '44444444-4444-4444-8444-444444444444',
    occurredAt: '2026-12-07T06:00:00.000Z',
    protocol: 'MCP',
    direction: 'REQUEST',
    source: { type: 'AGENT', id: AGENT, label: 'bot' },
    sink: { type: 'MCP_SERVER', id: SERVER },
    method: 'tools/call',
    toolName: 'get_config',
    action: 'LOG',
    reasons: ['seen'],
    verdicts: [{ bindingId: 'e1', groupId: 'g', action: 'LOG' }],
    content: JSON.stringify(message),
    ...overrides,
  };
}

describe(fateOf.name, () => {
  it('should rebuild the decision input of a hop whose content was captured', () => {
    const sut = fateOf(hop(), {}, EVERYWHERE, TENANT);

    expect(sut).toMatchObject({
      kind: 'JUDGEABLE',
      input: {
        protocol: 'MCP',
        direction: 'REQUEST',
        source: { type: 'AGENT', id: AGENT, name: 'bot' },
        tool: { name: 'get_config' },
        message: { text: 'get_config' },
        time: '2026-12-07T06:00:00.000Z',
      },
    });
  });

  it('should count a digest-only hop as unreplayable, never guess its content', () => {
    expect(fateOf(hop({ content: undefined }), {}, EVERYWHERE, TENANT)).toEqual({
      kind: 'UNREPLAYABLE',
    });
  });

  it('should skip hops outside the place the version is put', () => {
    const elsewhere: ReplayPlacement = {
      bindingLevel: 'AGENT',
      agentId: '55555555-5555-4555-8555-555555555555',
      replaces: [],
    };

    expect(fateOf(hop(), {}, elsewhere, TENANT)).toEqual({ kind: 'SKIPPED' });
  });

  it("should skip the platform's own probes of a server, which no policy judged (T103)", () => {
    const probe = hop({ source: { type: 'SERVICE', label: 'relay' }, method: 'server/discover' });
    const answer = hop({ direction: 'RESPONSE', sink: { type: 'SERVICE', label: 'relay' } });

    expect(fateOf(probe, {}, EVERYWHERE, TENANT)).toEqual({ kind: 'SKIPPED' });
    expect(fateOf(answer, {}, EVERYWHERE, TENANT)).toEqual({ kind: 'SKIPPED' });
  });
});

describe(matchesFilters.name, () => {
  it('should keep a hop only when every filter given keeps it', () => {
    expect(matchesFilters(hop(), { protocols: ['MCP'], toolNames: ['get_config'] })).toBe(true);
    expect(matchesFilters(hop(), { toolNames: ['echo'] })).toBe(false);
    expect(matchesFilters(hop(), { endpointIds: [SERVER] })).toBe(true);
    expect(matchesFilters(hop(), { protocols: ['JSONRPC'] })).toBe(false);
  });
});

describe(judgeRecorded.name, () => {
  it('should compare the recorded action with the candidate standing in for the binding it replaces', () => {
    const candidate: BindingResult = {
      bindingId: 'v2',
      bindingLevel: 'TENANT',
      priority: 0,
      groupId: 'g',
      groupName: 'g',
      groupVersion: '2',
      action: 'BLOCK',
      reasons: ['off limits'],
      mask: [],
      detections: [],
    };

    const sut = judgeRecorded(hop(), candidate, EVERYWHERE, false);

    expect(sut).toMatchObject({
      enforced: { action: 'LOG', policyIds: ['g'], reasons: ['seen'] },
      shadow: { action: 'BLOCK', policyIds: ['g'], reasons: ['off limits'] },
      hop: { toolName: 'get_config', direction: 'REQUEST', protocol: 'MCP' },
    });
  });
});

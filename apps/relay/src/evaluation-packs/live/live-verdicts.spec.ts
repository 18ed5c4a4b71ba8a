import { HopDecision } from '../../decisions/decision.types';
import { ObservedHop } from '../../traffic/pipeline/evaluation-taps';
import { Hop as TrafficHop } from '../../traffic/pipeline/hop.types';
import { EvaluationResponse, Hop } from '../dto/pack-responses';
import { liveVerdict, unsendable } from './live-verdicts';

const agent = { type: 'AGENT' as const, id: 'a' };
const server = { type: 'MCP_SERVER' as const, id: 'm' };

function decided(action: HopDecision['action'], text = 'payload'): HopDecision {
  return {
    action,
    isBlocked: action === 'BLOCK',
    failOpen: false,
    reasons: action === 'LOG' ? [] : [`${action} by policy`],
    mask: [],
    detections: [],
    maskedFields: [],
    bindings: [],
    maskedMessage: { text, json: { text } },
  };
}

function seen(
  direction: 'REQUEST' | 'RESPONSE',
  json: unknown,
  outcome: Partial<ObservedHop>,
  method = 'tools/call',
): ObservedHop {
  const hop: TrafficHop = {
    tenantId: 't',
    correlationId: 'evaluation-run-r',
    protocol: 'MCP',
    direction,
    source: direction === 'REQUEST' ? agent : server,
    sink: direction === 'REQUEST' ? server : agent,
    agent,
    method,
    tool: 'echo',
    message: { json, text: 'payload' },
    captureContent: true,
  };
  return { hop, decisionId: `d-${direction}`, ...outcome };
}

function expected(extra: Partial<Hop>, toServer = true): Hop {
  return {
    hopId: toServer ? 'request' : 'response',
    source: toServer ? agent : server,
    sink: toServer ? server : agent,
    expectedPolicyIds: [],
    expectedMaskedFields: [],
    expectedPatterns: [],
    assertions: [],
    ...extra,
  };
}

function evaluation(hops: Hop[]): EvaluationResponse {
  return {
    id: 'e',
    packId: 'p',
    name: 'echo',
    source: agent,
    target: server,
    input: '{}',
    hops,
    enabled: true,
    createdAt: '',
    updatedAt: '',
  };
}

describe('liveVerdict', () => {
  it('should judge each expected hop against the hop that happened in its direction', () => {
    const verdict = liveVerdict(
      evaluation([
        expected({ expectedAction: 'LOG', toolName: 'echo' }),
        expected({ expectedAction: 'LOG' }, false),
      ]),
      [
        seen('REQUEST', { id: 1, method: 'tools/call' }, { decision: decided('LOG') }),
        seen('RESPONSE', { id: 1, result: {} }, { decision: decided('BLOCK') }),
      ],
      'answered -31001 blocked',
    );

    expect(verdict.status).toBe('FAILED');
    expect(verdict.hops.map((h) => [h.hopId, h.action, h.outcome, h.passed])).toEqual([
      ['request', 'LOG', 'DELIVERED', true],
      ['response', 'BLOCK', 'REFUSED', false],
    ]);
    expect(verdict.hops[1]).toMatchObject({
      decisionId: 'd-RESPONSE',
      reasons: ['BLOCK by policy'],
    });
  });

  it('should pass a hop not reached only after a hop expected to stop the traffic', () => {
    const hops = [
      expected({ expectedAction: 'BLOCK' }),
      expected({ expectedAction: 'LOG' }, false),
    ];
    const observed = [seen('REQUEST', { id: 1 }, { decision: decided('BLOCK') })];

    const stopped = liveVerdict(evaluation(hops), observed, 'answered -31001');
    const unexpected = liveVerdict(
      evaluation([expected({ expectedAction: 'LOG' }), hops[1]]),
      observed,
      'answered -31001',
    );

    expect(stopped.status).toBe('PASSED');
    expect(stopped.hops[1]).toMatchObject({ action: 'NOT_REACHED', passed: true });
    expect(unexpected.hops.map((h) => h.passed)).toEqual([false, false]);
    expect(unexpected.hops[1].checks).toContainEqual(
      expect.objectContaining({ check: 'reached', actual: 'not reached: answered -31001' }),
    );
  });

  it('should take a refusal before any policy as the hop action, and a hold as HELD', () => {
    const refused = liveVerdict(
      evaluation([expected({ expectedAction: 'BLOCK' })]),
      [
        seen(
          'REQUEST',
          { id: 1 },
          { refusal: { type: 'COMMUNICATION_AUDIT', action: 'BLOCK', reason: 'kill switch' } },
        ),
      ],
      'answered -31005',
    );
    const held = liveVerdict(
      evaluation([expected({ expectedAction: 'HUMAN_REVIEW_REQUIRED' })]),
      [
        seen(
          'REQUEST',
          { id: 1 },
          { decision: decided('HUMAN_REVIEW_REQUIRED'), hitlRequestId: 'hold-1' },
        ),
      ],
      'answered -31004',
    );

    expect(refused.hops[0]).toMatchObject({
      action: 'BLOCK',
      outcome: 'REFUSED',
      reasons: ['kill switch'],
      passed: true,
    });
    expect(held.hops[0]).toMatchObject({ outcome: 'HELD', hitlRequestId: 'hold-1', passed: true });
  });

  it('should not take a notification for a hop that names no method', () => {
    const verdict = liveVerdict(
      evaluation([expected({ expectedAction: 'LOG' }, false)]),
      [
        seen(
          'RESPONSE',
          { method: 'notifications/progress' },
          { decision: decided('WARN') },
          'notifications/progress',
        ),
        seen('RESPONSE', { id: 1, result: {} }, { decision: decided('LOG') }),
      ],
      'answered HTTP 200',
    );

    expect(verdict.hops[0]).toMatchObject({ action: 'LOG', decisionId: 'd-RESPONSE' });
  });

  it('should fail every hop of an evaluation that cannot be sent, saying why', () => {
    const verdict = unsendable(evaluation([expected({ expectedAction: 'LOG' })]), 'no agent');

    expect(verdict.status).toBe('FAILED');
    expect(verdict.hops[0].checks[0]).toMatchObject({ actual: 'not reached: no agent' });
  });
});

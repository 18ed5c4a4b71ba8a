import { HopDecision } from '../../decisions/decision.types';
import { ObservedHop } from '../../traffic/pipeline/evaluation-taps';
import { EvaluationResponse, EvaluationVerdict, Hop, HopVerdict } from '../dto/pack-responses';
import { hopVerdictOf } from '../verdicts';

/** Expected actions after which nothing further of the exchange happens (G17). */
const STOPS: ReadonlySet<string> = new Set(['BLOCK', 'ERROR', 'HUMAN_REVIEW_REQUIRED']);

function isNotification(json: unknown): boolean {
  const message = json as { method?: unknown; id?: unknown } | null;
  return typeof message?.method === 'string' && (message.id === undefined || message.id === null);
}

/** G17: the first hop not yet taken with the evaluation hop's parties, direction, method and tool. */
function matches(hop: Hop, observed: ObservedHop): boolean {
  const seen = observed.hop;
  return (
    seen.source.id === hop.source.id &&
    seen.sink.id === hop.sink.id &&
    (!hop.direction || seen.direction === hop.direction) &&
    (hop.method ? seen.method === hop.method : !isNotification(seen.message.json)) &&
    (!hop.toolName || seen.tool === hop.toolName)
  );
}

/** A refusal before any policy (kill switch, rate limit, subscription, upstream fault) as a decision. */
function decisionOf(observed: ObservedHop): HopDecision {
  if (observed.decision) {
    return observed.decision;
  }
  const refusal = observed.refusal!;
  return {
    action: refusal.action,
    isBlocked: true,
    failOpen: false,
    reasons: [refusal.reason],
    mask: [],
    detections: [],
    maskedFields: [],
    bindings: [],
    maskedMessage: observed.hop.message,
  };
}

function outcomeOf(observed: ObservedHop, decision: HopDecision): HopVerdict['outcome'] {
  if (observed.hitlRequestId) {
    return 'HELD';
  }
  return decision.isBlocked ? 'REFUSED' : 'DELIVERED';
}

function observedVerdict(hop: Hop, observed: ObservedHop): HopVerdict {
  const decision = decisionOf(observed);
  return {
    ...hopVerdictOf(hop, decision),
    reasons: decision.reasons,
    decisionId: observed.decisionId,
    outcome: outcomeOf(observed, decision),
    ...(observed.hitlRequestId ? { hitlRequestId: observed.hitlRequestId } : {}),
  };
}

/**
 * G17: a hop the traffic never reached passes only when an earlier hop was expected to stop it;
 * `why` says how the traffic ended.
 */
function unreachedVerdict(hop: Hop, isExpected: boolean, why: string): HopVerdict {
  const expected = isExpected ? 'not reached (an earlier hop stops the traffic)' : 'reached';
  const checks = [
    { check: 'reached', expected, actual: `not reached: ${why}`, passed: isExpected },
  ];
  if (hop.expectedAction && !isExpected) {
    checks.push({
      check: 'expectedAction',
      expected: hop.expectedAction,
      actual: 'NOT_REACHED',
      passed: false,
    });
  }
  return {
    hopId: hop.hopId,
    passed: isExpected,
    action: 'NOT_REACHED',
    ...(hop.expectedAction ? { expectedAction: hop.expectedAction } : {}),
    checks,
    policies: [],
    maskedMessage: { text: '', json: null },
    outcome: 'NOT_REACHED',
  };
}

/** G17: each expected hop against the hop that really happened, in the order they happened. */
export function liveVerdict(
  evaluation: EvaluationResponse,
  observed: ObservedHop[],
  ended: string,
): EvaluationVerdict {
  const taken = new Set<number>();
  let isStopExpected = false;
  const hops = evaluation.hops.map((hop) => {
    const index = observed.findIndex((o, i) => !taken.has(i) && matches(hop, o));
    if (index < 0) {
      return unreachedVerdict(hop, isStopExpected, ended);
    }
    taken.add(index);
    isStopExpected ||= STOPS.has(hop.expectedAction ?? '');
    return observedVerdict(hop, observed[index]);
  });
  return {
    evaluationId: evaluation.id,
    name: evaluation.name,
    status: hops.every((h) => h.passed) ? 'PASSED' : 'FAILED',
    hops,
  };
}

/** G16: an evaluation a LIVE run cannot send: every hop fails, saying why. */
export function unsendable(evaluation: EvaluationResponse, why: string): EvaluationVerdict {
  return {
    evaluationId: evaluation.id,
    name: evaluation.name,
    status: 'FAILED',
    hops: evaluation.hops.map((hop) => unreachedVerdict(hop, false, why)),
  };
}

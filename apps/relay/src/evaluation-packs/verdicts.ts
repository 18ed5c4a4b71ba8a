import { HopDecision } from '../decisions/decision.types';
import {
  Assertion,
  CheckVerdict,
  EvaluationResponse,
  EvaluationVerdict,
  Hop,
  HopVerdict,
} from './dto/pack-responses';

/** R12: a policy "matched" a hop when its bound version asked for more than LOG (or failed). */
function matchedPolicies(decision: HopDecision): Array<{ groupId: string; groupName: string }> {
  return decision.bindings.filter((b) => b.action !== 'LOG');
}

function refersTo(subject: string, binding: { groupId: string; groupName: string }): boolean {
  return binding.groupId === subject || binding.groupName === subject;
}

function truthy(expected: string): boolean {
  return expected.trim().toLowerCase() !== 'false';
}

function verdict(
  check: string,
  expected: string,
  actual: string,
  passed: boolean,
  assertion?: Assertion,
): CheckVerdict {
  return {
    check,
    ...(assertion
      ? {
          checkId: assertion.checkId,
          kind: assertion.kind,
          ...(assertion.subject !== undefined ? { subject: assertion.subject } : {}),
        }
      : {}),
    expected,
    actual,
    passed,
  };
}

function assertionVerdict(assertion: Assertion, decision: HopDecision): CheckVerdict {
  const { kind, subject, expected } = assertion;
  switch (kind) {
    case 'ACTION': {
      const binding = subject ? decision.bindings.find((b) => refersTo(subject, b)) : undefined;
      const actual = subject ? (binding?.action ?? 'NOT_EVALUATED') : decision.action;
      return verdict('assertion', expected, actual, actual === expected, assertion);
    }
    case 'MASKED_FIELD': {
      const path = subject ?? '';
      const isMasked = decision.maskedFields.includes(path);
      return verdict(
        'assertion',
        String(truthy(expected)),
        String(isMasked),
        isMasked === truthy(expected),
        assertion,
      );
    }
    case 'REASON_CONTAINS': {
      const actual = decision.reasons.join('; ');
      return verdict(
        'assertion',
        expected,
        actual,
        decision.reasons.some((r) => r.includes(expected)),
        assertion,
      );
    }
    case 'DETECTION': {
      const found = decision.detections.filter((d) => !subject || d.kind === subject);
      const actual = decision.detections.map((d) => `${d.kind}:${d.label}`).join(', ');
      return verdict(
        'assertion',
        subject ? `${subject}:${expected}` : expected,
        actual,
        found.some((d) => d.label === expected),
        assertion,
      );
    }
    case 'POLICY_MATCHED': {
      const isMatched = matchedPolicies(decision).some((b) => refersTo(subject ?? '', b));
      return verdict(
        'assertion',
        String(truthy(expected)),
        String(isMatched),
        isMatched === truthy(expected),
        assertion,
      );
    }
  }
}

function patternMatches(
  pattern: string,
  flags: string | undefined,
  text: string,
): boolean | string {
  try {
    return new RegExp(pattern, flags ?? '').test(text);
  } catch (error) {
    return `invalid pattern: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** D15, D27: each verdict carries what was expected and what came out. */
export function compareHop(hop: Hop, decision: HopDecision): CheckVerdict[] {
  const checks: CheckVerdict[] = [];
  if (hop.expectedAction) {
    checks.push(
      verdict(
        'expectedAction',
        hop.expectedAction,
        decision.action,
        decision.action === hop.expectedAction,
      ),
    );
  }
  for (const field of hop.expectedMaskedFields) {
    const isMasked = decision.maskedFields.includes(field);
    const actual = isMasked
      ? `${field} masked`
      : `${field} not masked (masked: ${decision.maskedFields.map((f) => JSON.stringify(f)).join(', ') || 'none'})`;
    checks.push(verdict('expectedMaskedField', `${field} masked`, actual, isMasked));
  }
  for (const p of hop.expectedPatterns) {
    const outcome = patternMatches(p.pattern, p.flags, decision.maskedMessage.text);
    const actual = typeof outcome === 'string' ? outcome : outcome ? 'matched' : 'no match';
    const passed = typeof outcome === 'boolean' && outcome === (p.mode === 'MUST_MATCH');
    checks.push(verdict('expectedPattern', `${p.mode} ${p.label ?? p.pattern}`, actual, passed));
  }
  const matched = matchedPolicies(decision);
  for (const policyId of hop.expectedPolicyIds) {
    const isMatched = matched.some((b) => b.groupId === policyId);
    const actual = isMatched
      ? 'matched'
      : `not matched (matched: ${matched.map((b) => b.groupName).join(', ') || 'none'})`;
    checks.push(verdict('expectedPolicy', `${policyId} matched`, actual, isMatched));
  }
  for (const assertion of hop.assertions) {
    checks.push(assertionVerdict(assertion, decision));
  }
  return checks;
}

/** D27: a hop's verdict from the decision applied to it, simulated or LIVE (G17). */
export function hopVerdictOf(hop: Hop, decision: HopDecision): HopVerdict {
  const checks = compareHop(hop, decision);
  return {
    hopId: hop.hopId,
    passed: checks.every((c) => c.passed),
    action: decision.action,
    ...(hop.expectedAction ? { expectedAction: hop.expectedAction } : {}),
    checks,
    policies: decision.bindings.map((b) => ({
      groupId: b.groupId,
      groupName: b.groupName,
      groupVersion: b.groupVersion,
      action: b.action,
      ...(b.error ? { error: b.error } : {}),
    })),
    maskedMessage: decision.maskedMessage,
  };
}

/** D27: a disabled evaluation is SKIPPED, whatever the mode. */
export function skipped(evaluation: EvaluationResponse): EvaluationVerdict {
  return { evaluationId: evaluation.id, name: evaluation.name, status: 'SKIPPED', hops: [] };
}

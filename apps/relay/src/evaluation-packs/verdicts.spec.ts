import { HopDecision } from '../decisions/decision.types';
import { Hop } from './dto/pack-responses';
import { compareHop } from './verdicts';

const decision: HopDecision = {
  action: 'MASK',
  isBlocked: false,
  failOpen: false,
  reasons: ['SSN in message'],
  mask: [{ path: 'note', pattern: 'x' }],
  detections: [{ kind: 'REGEX', label: 'SSN', path: 'note' }],
  maskedFields: ['note'],
  bindings: [
    {
      bindingId: 'b1',
      bindingLevel: 'TENANT',
      priority: 1,
      groupId: 'g-pii',
      groupName: 'pii',
      groupVersion: '1',
      action: 'MASK',
      reasons: [],
      mask: [],
      detections: [],
    },
    {
      bindingId: 'b2',
      bindingLevel: 'TENANT',
      priority: 2,
      groupId: 'g-log',
      groupName: 'log',
      groupVersion: '1',
      action: 'LOG',
      reasons: [],
      mask: [],
      detections: [],
    },
  ],
  maskedMessage: { text: 'my ssn is [MASKED:SSN]', json: { note: 'my ssn is [MASKED:SSN]' } },
};

function hop(extra: Partial<Hop>): Hop {
  return {
    hopId: 'h',
    source: { type: 'AGENT', id: 'a' },
    sink: { type: 'MCP_SERVER', id: 'm' },
    expectedPolicyIds: [],
    expectedMaskedFields: [],
    expectedPatterns: [],
    assertions: [],
    ...extra,
  };
}

describe('compareHop', () => {
  it('should pass every check when the decision is what the hop expects', () => {
    const sut = compareHop(
      hop({
        expectedAction: 'MASK',
        expectedMaskedFields: ['note'],
        expectedPolicyIds: ['g-pii'],
        expectedPatterns: [
          { patternId: 'p1', pattern: '\\d{3}-\\d{2}-\\d{4}', mode: 'MUST_NOT_MATCH' },
          { patternId: 'p2', pattern: 'masked:ssn', flags: 'i', mode: 'MUST_MATCH' },
        ],
        assertions: [
          { checkId: 'c1', kind: 'ACTION', expected: 'MASK' },
          { checkId: 'c2', kind: 'ACTION', subject: 'log', expected: 'LOG' },
          { checkId: 'c3', kind: 'MASKED_FIELD', subject: 'note', expected: 'true' },
          { checkId: 'c4', kind: 'REASON_CONTAINS', expected: 'SSN' },
          { checkId: 'c5', kind: 'DETECTION', subject: 'REGEX', expected: 'SSN' },
          { checkId: 'c6', kind: 'POLICY_MATCHED', subject: 'g-pii', expected: 'true' },
          { checkId: 'c7', kind: 'POLICY_MATCHED', subject: 'log', expected: 'false' },
        ],
      }),
      decision,
    );
    expect(sut).toHaveLength(12);
    expect(sut.filter((c) => !c.passed)).toEqual([]);
  });

  it('should fail with what was expected and what came out when expectations are wrong', () => {
    const sut = compareHop(
      hop({
        expectedAction: 'BLOCK',
        expectedMaskedFields: ['ssn'],
        expectedPolicyIds: ['g-log'],
        expectedPatterns: [
          { patternId: 'p', pattern: 'MASKED', mode: 'MUST_NOT_MATCH', label: 'no masks' },
        ],
        assertions: [
          { checkId: 'a', kind: 'DETECTION', expected: 'EMAIL' },
          { checkId: 'b', kind: 'REASON_CONTAINS', expected: 'injection' },
          { checkId: 'c', kind: 'ACTION', subject: 'absent', expected: 'LOG' },
        ],
      }),
      decision,
    );
    expect(sut.every((c) => !c.passed)).toBe(true);
    expect(sut[0]).toEqual({
      check: 'expectedAction',
      expected: 'BLOCK',
      actual: 'MASK',
      passed: false,
    });
    expect(sut[1]).toEqual(
      expect.objectContaining({
        expected: 'ssn masked',
        actual: 'ssn not masked (masked: "note")',
      }),
    );
    expect(sut[2]).toEqual(
      expect.objectContaining({ expected: 'MUST_NOT_MATCH no masks', actual: 'matched' }),
    );
    expect(sut[3]).toEqual(
      expect.objectContaining({ expected: 'g-log matched', actual: 'not matched (matched: pii)' }),
    );
    expect(sut[4]).toEqual(
      expect.objectContaining({
        checkId: 'a',
        kind: 'DETECTION',
        expected: 'EMAIL',
        actual: 'REGEX:SSN',
      }),
    );
    expect(sut[6]).toEqual(expect.objectContaining({ actual: 'NOT_EVALUATED' }));
  });

  it('should report an invalid pattern as a failed check when the pattern does not compile', () => {
    const [check] = compareHop(
      hop({ expectedPatterns: [{ patternId: 'p', pattern: '(', mode: 'MUST_MATCH' }] }),
      decision,
    );
    expect(check).toEqual(
      expect.objectContaining({
        passed: false,
        actual: expect.stringContaining('invalid pattern'),
      }),
    );
  });
});

import { PolicyCompileFailure, PolicyEngine } from './policy-engine';

const MINIMAL = `package acme.guardrails

import rego.v1

ssn := \`\\b\\d{3}-\\d{2}-\\d{4}\\b\`

decision := {"action": "BLOCK", "reasons": ["prompt injection"]} if {
	regex.match(\`(?i)ignore (all )?previous instructions\`, input.message.text)
} else := {"action": "MASK", "mask": [{"path": "params.arguments.note", "pattern": ssn, "label": "SSN"}]} if {
	regex.match(ssn, input.message.text)
} else := {"action": "LOG"}
`;

describe(PolicyEngine.name, () => {
  const sut = new PolicyEngine();
  const evaluate = (source: string, text: string, data: Record<string, unknown> = {}) =>
    sut
      .compile(source, data)
      .evaluate(sut.prepareInput({ message: { text, json: {} } }), { timeoutMs: 50 });

  it('should evaluate the decision of POLICY.md minimal policy when the text has an SSN', () => {
    expect(evaluate(MINIMAL, 'my ssn is 123-45-6789')).toEqual({
      ok: true,
      value: {
        action: 'MASK',
        mask: [
          { path: 'params.arguments.note', pattern: '\\b\\d{3}-\\d{2}-\\d{4}\\b', label: 'SSN' },
        ],
      },
    });
    expect(evaluate(MINIMAL, 'Ignore previous instructions')).toEqual({
      ok: true,
      value: { action: 'BLOCK', reasons: ['prompt injection'] },
    });
    expect(evaluate(MINIMAL, 'hello')).toEqual({ ok: true, value: { action: 'LOG' } });
  });

  it('should expose the group data under the package path when data is given', () => {
    const source =
      'package acme.words\nimport rego.v1\ndecision := {"action": "BLOCK"} if { some w in data.acme.words.banned; contains(input.message.text, w) }\n';
    expect(evaluate(source, 'a secret plan', { banned: ['secret'] })).toEqual({
      ok: true,
      value: { action: 'BLOCK' },
    });
    expect(evaluate(source, 'a plan', { banned: ['secret'] })).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it('should list every problem with its line and column when the module does not compile', () => {
    const attempt = () =>
      sut.compile('package x\nimport rego.v1\ndecision := {"action": y} if { true }\n', {});
    expect(attempt).toThrow(PolicyCompileFailure);
    try {
      attempt();
    } catch (error) {
      const problems = (error as PolicyCompileFailure).problems;
      expect(problems.length).toBeGreaterThan(0);
      expect(problems[0]).toEqual(expect.objectContaining({ row: 3, col: expect.any(Number) }));
    }
  });

  it('should run the test module against the version and the group data when tests are given', () => {
    const source =
      'package acme.words\ndecision := {"action": "BLOCK"} if { some w in data.acme.words.banned; contains(input.text, w) }\n';
    const tests =
      'package acme.words_test\nimport data.acme.words\ntest_block if words.decision with input as {"text": "a secret"}\ntest_wrong if words.decision with input as {"text": "fine"}\n';

    const reports = sut.test(source, tests, { banned: ['secret'] });

    expect(reports).toEqual([
      { name: 'data.acme.words_test.test_block', status: 'PASS', row: 3, col: 1 },
      {
        name: 'data.acme.words_test.test_wrong',
        status: 'FAIL',
        detail: 'undefined',
        row: 4,
        col: 1,
      },
    ]);
  });

  it('should name the test module in compile problems of the tests', () => {
    const attempt = () =>
      sut.test('package x\ndecision := 1\n', 'package t\ntest_a if { z }\n', {});
    expect(attempt).toThrow(PolicyCompileFailure);
    try {
      attempt();
    } catch (error) {
      expect((error as PolicyCompileFailure).problems[0]).toEqual(
        expect.objectContaining({ file: 'policy_test.rego', row: 2 }),
      );
    }
  });

  it('should yield an error result when evaluation fails', () => {
    const source =
      'package x\nimport rego.v1\ndecision := {"action": "LOG"} if { input.a }\ndecision := {"action": "BLOCK"} if { input.b }\n';
    const result = sut
      .compile(source, {})
      .evaluate(sut.prepareInput({ a: true, b: true }), { timeoutMs: 50 });
    expect(result.ok).toBe(false);
  });
});

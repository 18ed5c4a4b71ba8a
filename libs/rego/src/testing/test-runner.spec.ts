import { RegoCompileError } from '../errors';
import { formatTestReport, runPolicyTests } from './test-runner';

const policy = `package acme.guardrails

default allow := false

allow if input.user in data.acme.admins

secret_found(text) if contains(text, "AKIA")

decision := {"action": "BLOCK"} if secret_found(input.message)
`;

function statuses(tests: string, data: unknown = { acme: { admins: ['alice'] } }) {
  return runPolicyTests(
    {
      'policy.rego': policy,
      'policy_test.rego': `package acme.guardrails_test\n\nimport data.acme.guardrails\n\n${tests}`,
    },
    { data },
  ).map((r) => [r.name.replace('data.acme.guardrails_test.', ''), r.status, r.detail ?? '']);
}

describe('runPolicyTests', () => {
  it('should pass a test whose rule is true and fail one that is undefined or false', () => {
    expect(
      statuses(`
test_admin if guardrails.allow with input as {"user": "alice"}
test_stranger if guardrails.allow with input as {"user": "bob"}
test_false := false
`),
    ).toEqual([
      ['test_admin', 'PASS', ''],
      ['test_false', 'FAIL', 'false'],
      ['test_stranger', 'FAIL', 'undefined'],
    ]);
  });

  it('should honour with mocks of data and of functions', () => {
    expect(
      statuses(`
test_data_mock if guardrails.allow with input as {"user": "x"} with data.acme.admins as ["x"]
test_function_mock if {
  guardrails.decision.action == "BLOCK" with input as {"message": "hi"} with guardrails.secret_found as true
}
`),
    ).toEqual([
      ['test_data_mock', 'PASS', ''],
      ['test_function_mock', 'PASS', ''],
    ]);
  });

  it('should report evaluation errors as ERROR and todo_ rules as SKIP', () => {
    const r = statuses(`
v := 1 if input.x
v := 2 if input.x
test_conflict if v with input as {"x": true}
test_div if 1 / 0 == 0
todo_later if false
`);
    expect(r.find(([n]) => n === 'todo_later')?.[1]).toBe('SKIP');
    expect(r.find(([n]) => n === 'test_conflict')?.slice(1)).toEqual([
      'ERROR',
      expect.stringContaining('eval_conflict_error'),
    ]);
    expect(r.find(([n]) => n === 'test_div')?.[1]).toBe('FAIL');
  });

  it('should throw RegoCompileError before running anything when a module does not compile', () => {
    expect(() => statuses('test_broken if {')).toThrow(RegoCompileError);
  });

  it('should summarise results as opa test does', () => {
    const results = runPolicyTests({ 't.rego': 'package t\ntest_a := true\ntest_b := false\n' });
    expect(formatTestReport(results)).toMatch(/test_b: FAIL .*\n-{80}\nPASS: 1\/2\nFAIL: 1\/2$/);
  });

  it('should run the tests of a helper whose comprehension uses its arguments (issue 38)', () => {
    const results = runPolicyTests({
      'tags.rego': `package tags

g(t, typ) := [{"type": typ, "v": x} | some x in split(t, ",")]

items := g(input.tags, "tag")
`,
      'tags_test.rego': `package tags_test

import data.tags

test_g if tags.g("a,b", "tag") == [{"type": "tag", "v": "a"}, {"type": "tag", "v": "b"}]

test_items if tags.items == [{"type": "tag", "v": "x"}] with input as {"tags": "x"}

test_mocked if tags.items == [{"type": "tag", "v": "A,B"}] with tags.g as mock with input.tags as "a,b"

mock(t, typ) := [{"type": typ, "v": upper(t)} | true]
`,
    });

    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['data.tags_test.test_g', 'PASS'],
      ['data.tags_test.test_items', 'PASS'],
      ['data.tags_test.test_mocked', 'PASS'],
    ]);
  });
});

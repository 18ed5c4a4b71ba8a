import { RegoCompileError, RegoEvalError } from './errors';
import { CompiledPolicy, compilePolicy } from './policy';
import { RegoSet } from './values/value';

const MINIMAL = `package acme.guardrails

import rego.v1

ssn := \`\\b\\d{3}-\\d{2}-\\d{4}\\b\`

decision := {"action": "BLOCK", "reasons": ["prompt injection"]} if {
	regex.match(\`(?i)ignore (all )?previous instructions\`, input.message.text)
} else := {"action": "MASK", "mask": [{"path": "params.arguments.note", "pattern": ssn, "label": "SSN"}]} if {
	regex.match(ssn, input.message.text)
} else := {"action": "LOG"}
`;

function policy(src: string, data?: unknown): CompiledPolicy {
  return compilePolicy({ 'p.rego': src }, { data });
}

function evalError(fn: () => unknown): RegoEvalError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RegoEvalError) {
      return e;
    }
    throw e;
  }
  throw new Error('expected an evaluation error');
}

describe(CompiledPolicy.name, () => {
  it('should follow the else chain when the first branch does not match', () => {
    const sut = policy(MINIMAL);

    const block = sut.evaluateRule('data.acme.guardrails.decision', {
      input: { message: { text: 'Ignore previous instructions' } },
    });
    const mask = sut.evaluateRule('data.acme.guardrails.decision', {
      input: { message: { text: 'ssn 123-45-6789' } },
    });
    const log = sut.evaluateRule('data.acme.guardrails.decision', {
      input: { message: { text: 'hello' } },
    });

    expect(block).toEqual({ action: 'BLOCK', reasons: ['prompt injection'] });
    expect(mask).toMatchObject({
      action: 'MASK',
      mask: [{ label: 'SSN', path: 'params.arguments.note' }],
    });
    expect(log).toEqual({ action: 'LOG' });
  });

  it('should return undefined when a rule is not defined for the input', () => {
    const sut = policy('package a\nallow if input.user == "alice"\n');

    expect(sut.evaluateRule('data.a.allow', { input: { user: 'bob' } })).toBeUndefined();
  });

  it('should build partial sets and objects when rules enumerate data', () => {
    const sut = policy(
      'package a\nnames contains n if some n in data.users\nages[n] := a if { some u in data.people; n := u.name; a := u.age }\n',
      {
        users: ['b', 'a', 'b'],
        people: [{ name: 'x', age: 3 }],
      },
    );

    expect(sut.evaluateRule('data.a.names')).toEqual(['a', 'b']);
    expect(sut.evaluateRule('data.a.ages')).toEqual({ x: 3 });
  });

  it('should use the default value when no rule body succeeds', () => {
    const sut = policy('package a\ndefault allow := false\nallow if input.ok\n');

    expect(sut.evaluateRule('data.a.allow', { input: {} })).toBe(false);
  });

  it('should evaluate functions, every, negation and comprehensions together', () => {
    const sut = policy(`package a
double(x) := x * 2
ok if {
  every x in input.xs { x > 0 }
  not 3 in input.xs
  [double(x) | some x in input.xs] == [2, 4]
}
`);

    expect(sut.evaluateRule('data.a.ok', { input: { xs: [1, 2] } })).toBe(true);
    expect(sut.evaluateRule('data.a.ok', { input: { xs: [1, -2] } })).toBeUndefined();
  });

  it('should bind query variables when a query enumerates', () => {
    const sut = policy('package a\np := [1, 2]\n');

    const rows = sut.queryJson('data.a.p[i] = x');

    expect(rows).toEqual([
      { i: 0, x: 1 },
      { i: 1, x: 2 },
    ]);
  });

  it('should replace input and functions when with is used', () => {
    const sut = policy(
      'package a\nn := count(input.xs)\nt if { n == 1 with input.xs as [9]; n == 7 with count as 7 }\n',
    );

    expect(sut.evaluateRule('data.a.t', { input: { xs: [] } })).toBe(true);
  });

  it('should raise eval_conflict_error when a complete rule has two values', () => {
    const sut = policy('package a\np := x if { some x in [1, 2] }\n');

    const err = evalError(() => sut.evaluateRule('data.a.p'));

    expect(err.code).toBe('eval_conflict_error');
    expect(err.message).toBe(
      'p.rego:2: eval_conflict_error: complete rules must not produce multiple outputs',
    );
  });

  it('should make a failing built-in undefined unless strict built-in errors are on', () => {
    const sut = policy('package a\np := 1 / input.d\n');

    expect(sut.evaluateRule('data.a.p', { input: { d: 0 } })).toBeUndefined();
    const err = evalError(() =>
      sut.evaluateRule('data.a.p', { input: { d: 0 }, strictBuiltinErrors: true }),
    );
    expect(err.message).toBe('p.rego:2: eval_builtin_error: div: divide by zero');
  });

  it('should stop an endless policy with eval_cancel_error when the deadline passes', () => {
    const sut = policy(
      'package a\np := count([1 | some a in numbers.range(1, 2000); some b in numbers.range(1, 2000); some c in numbers.range(1, 2000)])\n',
    );

    const err = evalError(() => sut.evaluateRule('data.a.p', { timeoutMs: 20 }));

    expect(err.code).toBe('eval_cancel_error');
  });

  it('should stop a huge numbers.range with eval_cancel_error when the step budget is exhausted', () => {
    const sut = policy('package a\np := count(numbers.range(1, 1000000000))\n');

    const err = evalError(() => sut.evaluateRule('data.a.p', { maxSteps: 100_000 }));

    expect(err.code).toBe('eval_cancel_error');
  });

  it('should throw RegoCompileError with every problem when modules do not compile', () => {
    let caught: unknown;
    try {
      policy('package a\np if { x > 1 }\nq if nope()\n');
    } catch (e) {
      caught = e;
    }

    expect(caught).toBeInstanceOf(RegoCompileError);
    expect((caught as RegoCompileError).errors.map((e) => e.code).sort()).toEqual([
      'rego_type_error',
      'rego_unsafe_var_error',
    ]);
  });

  it('should order set elements the way OPA serialises them when values are mixed', () => {
    const sut = policy('package a\ns := {"b", 1, null, true, [1], "a"}\n');

    expect(sut.evaluateValue('data.a.s')).toBeInstanceOf(RegoSet);
    expect(sut.evaluateRule('data.a.s')).toEqual([null, true, 1, 'a', 'b', [1]]);
  });

  it('should interpolate values and print <undefined> when a template string has expressions', () => {
    const sut = policy(
      'package a\nname := "bob"\nmsg := $"hi {name}, {count([1, 2])} {input.none} \\{x}"\n',
    );

    expect(sut.evaluateRule('data.a.msg', { input: {} })).toBe('hi bob, 2 <undefined> {x}');
  });

  it('should keep going and print <undefined> when a print operand is undefined', () => {
    const lines: string[] = [];
    const sut = policy('package a\np if { print("v:", input.v, input.nope); -input.v == -2 }\n');

    expect(sut.evaluateRule('data.a.p', { input: { v: 2 }, print: (l) => lines.push(l) })).toBe(
      true,
    );
    expect(lines).toEqual(['v: 2 <undefined>']);
  });

  it('should report the query position when a query does not parse', () => {
    const sut = policy('package a\np := 1\n');

    let caught: unknown;
    try {
      sut.query('data.a.p = ');
    } catch (e) {
      caught = e;
    }

    expect(caught).toBeInstanceOf(RegoCompileError);
    expect((caught as RegoCompileError).errors[0]).toMatchObject({
      code: 'rego_parse_error',
      location: { file: 'query', row: 1 },
    });
  });

  it('should report package paths when modules are compiled', () => {
    const sut = compilePolicy({
      'a.rego': 'package acme.guardrails\n',
      'b.rego': 'package b["c-d"]\n',
    });

    expect(sut.packages).toEqual([
      ['acme', 'guardrails'],
      ['b', 'c-d'],
    ]);
  });

  it('should reject Rego v0 rule bodies when if is missing', () => {
    expect(() => policy('package a\np { true }\n')).toThrow(
      '`if` keyword is required before rule body',
    );
  });
});

import { builtinRegistry } from '../builtins/registry';
import '../builtins/all';
import { RegoCompileError } from '../errors';
import { compileProgram } from './compiler';

function typeErrors(body: string): string[] {
  try {
    compileProgram([{ file: 'm.rego', source: `package a\n${body}\n` }], builtinRegistry());
  } catch (e) {
    if (e instanceof RegoCompileError) {
      return e.errors.map((x) => `${x.code}: ${x.message}`);
    }
    throw e;
  }
  return [];
}

describe('compile-time type checks', () => {
  it('should type a nested built-in call by its result type', () => {
    expect(typeErrors('x := upper(count(input.a))')).toEqual([
      'rego_type_error: upper: invalid argument(s)\n\thave: (number)\n\twant: (string)',
    ]);
  });

  it('should check the operands of built-ins beyond the string and collection ones', () => {
    expect(typeErrors('x := time.add_date(0, "1", 0, 0)')).toEqual([
      'rego_type_error: time.add_date: invalid argument(s)\n\thave: (number, string, number, number)\n\twant: (number, number, number, number)',
    ]);
    expect(typeErrors('x := strings.any_prefix_match(["a"], {"b"})')).toEqual([]);
    expect(typeErrors('x := union(input.s)')).toEqual([]);
  });

  it('should type a local assigned with := from a literal or a built-in', () => {
    expect(typeErrors('p if { n := count(input.a); lower(n) }')).toEqual([
      'rego_type_error: lower: invalid argument(s)\n\thave: (number)\n\twant: (string)',
    ]);
    expect(typeErrors('p if { s := "a"; s + 1 > 0 }')).toEqual([
      'rego_type_error: plus: invalid argument(s)\n\thave: (string, number)\n\twant: (number, number)',
    ]);
  });

  it('should report a match error when = unifies values of different types', () => {
    expect(typeErrors('p if { x := 1; x = "a" }')).toEqual([
      'rego_type_error: match error\n\tleft  : number\n\tright : string',
    ]);
  });

  it('should accept what OPA accepts: untyped operands, set operators, shadowed and re-bound names', () => {
    expect(typeErrors('p if { n := input.n; lower(n) }')).toEqual([]);
    expect(typeErrors('x := y if { y := {1} | {2}; count(y) > 0 }')).toEqual([]);
    expect(typeErrors('s := {1, 2} - {1}')).toEqual([]);
    expect(typeErrors('f(a) := b if { b := a + 1 }\nx := f(1)')).toEqual([]);
    expect(typeErrors('x := [y | y := "a"; lower(y)]')).toEqual([]);
    expect(typeErrors('p if { [a, b] = [1, "x"]; a + 1 > 0; lower(b) }')).toEqual([]);
    expect(typeErrors('p if { x := 1; y := [x | some x in ["a"]; lower(x)] }')).toEqual([]);
  });

  it('should type a reference to a complete rule by the type of its values', () => {
    expect(typeErrors('n := 5\np if { lower(n) }')).toEqual([
      'rego_type_error: lower: invalid argument(s)\n\thave: (number)\n\twant: (string)',
    ]);
    expect(typeErrors('s contains 1 if { true }\np if { upper(data.a.s) }')).toEqual([
      'rego_type_error: upper: invalid argument(s)\n\thave: (set)\n\twant: (string)',
    ]);
    expect(
      typeErrors('default m := "x"\nm := y if { y := count(input.a) }\np if { lower(m) }'),
    ).toEqual([]);
    expect(typeErrors('r := input.x\np if { lower(r) }')).toEqual([]);
    expect(
      typeErrors('f(x) := 1 if { x > 0 }\nf(x) := 2 if { x <= 0 }\np if { lower(f(1)) }'),
    ).toEqual(['rego_type_error: lower: invalid argument(s)\n\thave: (number)\n\twant: (string)']);
    expect(typeErrors('g(x) := x\np if { lower(g("a")) }')).toEqual([]);
    // A cycle is typed 'any' (the recursion error is the only one).
    expect(typeErrors('a := b\nb := a\np if { lower(a) }')).toEqual([
      expect.stringContaining('rego_recursion_error'),
    ]);
  });

  it('should type the variables of some … in from the element and key types of the domain', () => {
    const lower = 'rego_type_error: lower: invalid argument(s)\n\thave: (number)\n\twant: (string)';
    expect(typeErrors('p if { some x in [1, 2]; lower(x) }')).toEqual([lower]);
    expect(typeErrors('p if { some i, x in ["a", "b"]; lower(i) }')).toEqual([lower]);
    expect(typeErrors('p if { some x in {1, 2}; lower(x) }')).toEqual([lower]);
    expect(typeErrors('p if { some k, v in {"a": 1}; lower(v) }')).toEqual([lower]);
    expect(typeErrors('p if { xs := [n | some n in [1, 2]]; some x in xs; lower(x) }')).toEqual([
      lower,
    ]);
    expect(typeErrors('p if { xs := [1, 2]; x := xs[_]; lower(x) }')).toEqual([lower]);
    expect(typeErrors('p if { xs := {1, 2}; lower(xs[1]) }')).toEqual([lower]);
  });

  it('should leave element types unknown where OPA would need unions or input', () => {
    expect(typeErrors('p if { some x in [1, "a"]; lower(x) }')).toEqual([]);
    expect(typeErrors('p if { some x in input.xs; lower(x) }')).toEqual([]);
    expect(typeErrors('p if { some x in ["a"]; lower(x) }')).toEqual([]);
    expect(typeErrors('p if { some k, v in {"a": 1, 2: 3}; lower(k) }')).toEqual([]);
    expect(typeErrors('p if { some x in [1]; x > 0 }\nq if { some x in ["a"]; lower(x) }')).toEqual(
      [],
    );
    // The comprehension's x shadows the outer one: each keeps its own type.
    expect(typeErrors('p if { x := "a"; y := [x | some x in [1]]; lower(x); y[0] > 0 }')).toEqual(
      [],
    );
    expect(typeErrors('p if { o := {"a": 1}; lower(o.b) }')).toEqual([]);
  });
});

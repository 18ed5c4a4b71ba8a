import { builtinRegistry } from '../../builtins/registry';
import '../../builtins/all';
import { RegoCompileError } from '../../errors';
import { compileProgram } from '../compiler';
import { BUILTIN_DECLS } from '../../builtins/decls';
import { OPA_BUILTINS, DEPRECATED_BUILTINS } from '../../builtins/opa-builtins';
import { TypeChecker } from './checker';
import { builtinDecl } from './notation';
import { argsText } from './type-text';

/** Compile errors of a module `package a` with the given rules, as `code: message`. */
function typeErrors(rules: string): string[] {
  try {
    compileProgram([{ file: 'm.rego', source: `package a\n${rules}\n` }], builtinRegistry());
  } catch (e) {
    if (e instanceof RegoCompileError) {
      return e.errors.map((x) => `${x.code}: ${x.message}`);
    }
    throw e;
  }
  return [];
}

const argError = (name: string, have: string, want: string): string =>
  `rego_type_error: ${name}: invalid argument(s)\n\thave: ${have}\n\twant: ${want}`;
const matchError = (left: string, right: string): string =>
  `rego_type_error: match error\n\tleft  : ${left}\n\tright : ${right}`;
const LOWER_NUMBER = argError('lower', '(number)', '(x: string, y: string)');

// Each case cites the OPA test (v1/ast/check_test.go unless said otherwise) whose behaviour it holds.
describe(TypeChecker.name, () => {
  it('should hold a declaration, read back as written, for every non-deprecated built-in of OPA', () => {
    const missing = OPA_BUILTINS.filter(
      (n) => !DEPRECATED_BUILTINS.has(n) && n !== 'print' && !builtinDecl(n),
    );
    expect(missing).toEqual([]);
    for (const [name, text] of Object.entries(BUILTIN_DECLS)) {
      const decl = builtinDecl(name);
      const written = decl ? `${argsText({ ...decl, result: undefined })}` : '';
      expect(text.startsWith(written)).toBe(true);
    }
  });

  // The cases of OPA's check_test.go (and its match-error documentation) as Rego v1 modules, with the
  // number of type errors OPA reports for each (README, Conformance: main passed 9 of these 27).
  const OPA_CASES: [string, string, number][] = [
    ['TestCheckBuiltinErrors/trivial', 'x := true + 1', 1],
    ['TestCheckBuiltinErrors/refs', 'p if { x := [null]; x[0] + 1 > 0 }', 1],
    ['TestCheckBuiltinErrors/array comprehensions', 'x := sum([null | true])', 1],
    ['TestCheckBuiltinErrors/arrays-any', 'x := sum([1, 2, "3", 4])', 1],
    ['TestCheckBuiltinErrors/arrays-bad-input', 'p if { contains([1, 2, 3], "x") }', 1],
    ['TestCheckBuiltinErrors/objects-bad-input', 'x := sum({"a": 1, "b": 2})', 1],
    ['TestCheckBuiltinErrors/sets-any', 'x := sum({1, 2, "3", 4})', 1],
    ['TestCheckBuiltinErrors/virtual-ref', 'p := "foo"\nq if { data.a.p + 1 > 0 }', 1],
    ['TestCheckMatchErrors/null', 'p if { null = true }', 1],
    ['TestCheckMatchErrors/array-nested', 'p if { [1, 2, 3] = [1, 2, "3"] }', 1],
    ['TestCheckMatchErrors/array-nested-2', 'p if { [1, 2] = [1, 2, 3] }', 1],
    [
      'TestCheckMatchErrors/array-dynamic',
      'p if { [true | true] = [x | a = [1, "foo"]; x = a[_]] }',
      1,
    ],
    ['TestCheckMatchErrors/object-nested', 'p if { {"a": 1, "b": "2"} = {"a": 1, "b": 2} }', 1],
    ['TestCheckMatchErrors/object-nested-2', 'p if { {"a": 1} = {"a": 1, "b": "2"} }', 1],
    ['TestCheckMatchErrors/any', 'p if { x = ["str", 1]; x[_] = null }', 1],
    ['TestCheckInference/sets-nested (no error)', 'p if { {"a", 1, 2} = {1, 2, 3} }', 0],
    [
      'TestCheckInference/type unioning: arrays (no error)',
      'p if { x = [[1], ["foo"]]; x[_] = [y] }',
      0,
    ],
    ['TestCheckRefErrUnsupported', 'p if { arr = [[1, 2], [3, 4]]; arr[1][0].deadbeef }', 1],
    [
      'TestCheckRefErrInvalid/bad leaf var',
      'q := {"foo": 1, "bar": 2}\np if { x = 1; data.a.q[x] }',
      1,
    ],
    [
      'TestCheckRefErrInvalid/bad object key value',
      'p if { arr = [{"a": 1, "c": 3}, {"b": 2}]; arr[0].b }',
      1,
    ],
    [
      'TestCheckRefErrInvalid/composite ref type error 1',
      'p if { a = {[1], [2], [3]}; a[["foo"]] }',
      1,
    ],
    ['TestCheckRefErrInvalid/composite ref type error 3', 'p if { a = [1, 2, 3]; a[{}] = b }', 1],
    [
      'TestCheckValidErrors/undefined_reference_error',
      'x := {"a": 1}\ny if { z }\nz if { x[1] == 1 }',
      1,
    ],
    [
      'TestFunctionsTypeInference/0',
      'foo([a, b]) := y if { split(a, b, y) }\nfn(_) := y if { foo(["hello", 5], y) }',
      1,
    ],
    [
      'TestFunctionsTypeInference/1 (no error)',
      'foo([a, b]) := y if { split(a, b, y) }\nfn(_) := y if { foo(["hello", "ll"], y) }',
      0,
    ],
    ['docs errors/match-error', 'same if 1 == "1"', 1],
    [
      'docs errors/match-error objects',
      'user1 := {"name": "joe", "age": 55}\nuser2 := {"name": "jane"}\nsame_user if user1 == user2',
      1,
    ],
  ];

  it.each(OPA_CASES)('should report what OPA reports for %s', (_name, rules, count) => {
    expect(typeErrors(rules).filter((e) => e.startsWith('rego_type_error'))).toHaveLength(count);
  });

  describe('built-in arguments (TestCheckBuiltinErrors)', () => {
    it('should print have and want as OPA does when a nested call has the wrong type', () => {
      // OPA moves `count(…)` into its own expression; `upper` gets its output var and one of its own.
      expect(typeErrors('x := upper(count(input.a))')).toEqual([
        argError('upper', '(number, ???)', '(x: string, y: string)'),
      ]);
    });

    it('should reject literal operands of the wrong type ("trivial", "arrays-any", "sets-any")', () => {
      expect(typeErrors('x := true + 1')).toEqual([
        argError('plus', '(boolean, number, ???)', '(x: number, y: number, z: number)'),
      ]);
      expect(typeErrors('x := sum([1, 2, "3", 4])')).toEqual([
        argError(
          'sum',
          '(array<number, number, string, number>, ???)',
          '(collection: any<array[number], set[number]>, n: number)',
        ),
      ]);
      expect(typeErrors('x := sum({1, 2, "3", 4})')).toHaveLength(1);
      expect(typeErrors('x := sum({"a": 1, "b": 2})')).toHaveLength(1);
      expect(typeErrors('p if { contains([1, 2, 3], "x") }')).toHaveLength(1);
    });

    it('should type refs and comprehensions in operands ("refs", "array comprehensions")', () => {
      expect(typeErrors('p if { x := [null]; x[0] + 1 > 0 }')).toHaveLength(1);
      expect(typeErrors('x := sum([null | true])')).toHaveLength(1);
    });

    it('should type a reference to a rule by its value ("virtual-ref")', () => {
      expect(typeErrors('p := "foo"\nq if { data.a.p + 1 > 0 }')).toEqual([
        argError('plus', '(string, number, ???)', '(x: number, y: number, z: number)'),
      ]);
      expect(typeErrors('n := 5\np if { lower(n) }')).toEqual([LOWER_NUMBER]);
    });

    it('should report an arity mismatch with the declaration (ast/compile.go checkUndefinedFuncs)', () => {
      expect(typeErrors('p if { count([1], 2, 3) }')).toEqual([
        'rego_type_error: count: arity mismatch\n\thave: (array<number>, number, number)\n\twant: (collection: any<string, array[any], object[any: any], set[any]>)',
      ]);
    });

    it('should report a nested call with an output argument too many (checkUndefinedFuncs)', () => {
      expect(typeErrors('x := count([1], 2)')).toEqual([
        'rego_type_error: count: arity mismatch\n\thave: (array<number>, number, ???)\n\twant: (collection: any<string, array[any], object[any: any], set[any]>)',
      ]);
      expect(typeErrors('f(x) := x\np if { f(1, 2, 3) }')).toEqual([
        'rego_type_error: function data.a.f has arity 1, got 3 arguments',
      ]);
      expect(typeErrors('f(x) := x\np if { f(1, y); y == 1 }')).toEqual([]);
    });

    it('should report a with that replaces a function by one of another arity (checkExprWith)', () => {
      expect(typeErrors('f(x, y) := x + y\np if { count([1]) with count as f }')).toEqual([
        'rego_type_error: count: arity mismatch\n\thave: (number, number)\n\twant: (collection: any<string, array[any], object[any: any], set[any]>)',
      ]);
      expect(typeErrors('mock(x) := 1\np if { count([1]) with count as mock }')).toEqual([]);
    });

    it('should accept what OPA accepts: any, unions that include the wanted type, set operators', () => {
      expect(typeErrors('p if { n := input.n; lower(n) }')).toEqual([]);
      expect(typeErrors('x := y if { y := {1} | {2}; count(y) > 0 }')).toEqual([]);
      expect(typeErrors('s := {1, 2} - {1}')).toEqual([]);
      expect(typeErrors('x := [y | y := "a"; lower(y)]')).toEqual([]);
      expect(typeErrors('p if { [a, b] = [1, "x"]; a + 1 > 0; lower(b) }')).toEqual([]);
      expect(typeErrors('p if { x := 1; y := [x | some x in ["a"]; lower(x)] }')).toEqual([]);
      expect(typeErrors('p if { some x in [1, "a"]; lower(x) }')).toEqual([]);
      expect(typeErrors('p if { some x in input.xs; lower(x) }')).toEqual([]);
    });
  });

  describe('unification (TestCheckInference, TestCheckMatchErrors)', () => {
    it('should report a match error between terms of different types', () => {
      const cases = [
        'null = true',
        '[1, 2, 3] = [1, 2, "3"]',
        '[1, 2] = [1, 2, 3]',
        '{"a": 1, "b": "2"} = {"a": 1, "b": 2}',
        '{"a": 1} = {"a": 1, "b": "2"}',
        'x := ["str", 1]; x[_] = null',
      ];
      for (const c of cases) {
        const errs = typeErrors(`p if { ${c} }`);
        expect(errs).toHaveLength(1);
        expect(errs[0]).toMatch(/^rego_type_error: match error\n\tleft {2}: .*\n\tright : /);
      }
      expect(typeErrors('p if { x := 1; x = "a" }')).toEqual([
        'rego_type_error: match error\n\tleft  : number\n\tright : string',
      ]);
    });

    it('should type variables inside composites ("array-nested", "object-nested")', () => {
      expect(typeErrors('p if { [x, 1] = [true, y]; lower(x) }')).toEqual([
        argError('lower', '(boolean)', '(x: string, y: string)'),
      ]);
      expect(
        typeErrors('p if { {"a": "foo", "b": {"c": x}} = {"a": y, "b": {"c": 2}}; lower(x) }'),
      ).toEqual([LOWER_NUMBER]);
    });

    it('should union element types when enumerating ("type unioning: arrays")', () => {
      // y is any<number, string>: a string operand is fine, `true` is not.
      expect(typeErrors('p if { x := [[1], ["foo"]]; x[_] = [y]; lower(y) }')).toEqual([]);
      expect(typeErrors('p if { x := [[1], ["foo"]]; x[_] = [y]; y = true }')).toEqual([
        'rego_type_error: match error\n\tleft  : any<number, string>\n\tright : boolean',
      ]);
    });

    it('should flow element types through comprehensions and some … in', () => {
      expect(typeErrors('p if { some x in [1, 2]; lower(x) }')).toEqual([LOWER_NUMBER]);
      expect(typeErrors('p if { some i, x in ["a", "b"]; lower(i) }')).toEqual([LOWER_NUMBER]);
      expect(typeErrors('p if { some k, v in {"a": 1}; lower(v) }')).toEqual([LOWER_NUMBER]);
      expect(typeErrors('p if { xs := [n | some n in [1, 2]]; some x in xs; lower(x) }')).toEqual([
        LOWER_NUMBER,
      ]);
      expect(typeErrors('p if { xs := {1, 2}; lower(xs[1]) }')).toEqual([LOWER_NUMBER]);
    });
  });

  describe('rule and function types (TestCheckInferenceRules, TestFunctionsTypeInference)', () => {
    it('should type a partial set and an else chain as the union of their values', () => {
      expect(typeErrors('s contains 1 if { true }\np if { upper(data.a.s) }')).toEqual([
        argError('upper', '(set[number])', '(x: string, y: string)'),
      ]);
      // Default and else values of several types: any<number, string> unifies with string.
      expect(
        typeErrors('default m := "x"\nm := y if { y := count(input.a) }\np if { lower(m) }'),
      ).toEqual([]);
    });

    it('should infer a function argument type from its body and check calls against it', () => {
      const base = 'foo([a, b]) := y if { y := split(a, b) }\n';
      expect(typeErrors(`${base}p if { foo(["hello", 5]) }`)).toEqual([
        argError('data.a.foo', '(array<string, number>)', '(array<string, string>, array[string])'),
      ]);
      expect(typeErrors(`${base}p if { foo(["hello", "ll"]) }`)).toEqual([]);
      expect(typeErrors('g(x) := x\np if { lower(g("a")) }')).toEqual([]);
      expect(typeErrors('f(a) := b if { b := a + 1 }\nx := f(1)')).toEqual([]);
    });

    it('should type a rule in a cycle as any: the recursion error is the only one', () => {
      expect(typeErrors('a := b\nb := a\np if { lower(a) }')).toEqual([
        expect.stringContaining('rego_recursion_error'),
      ]);
    });

    it('should type a function whose body has an error as any (TestCheckValidErrors)', () => {
      expect(typeErrors('a(x) if { max("foo") }\nb if { a(1) }')).toHaveLength(1);
    });
  });

  describe('references (TestCheckRefErrInvalid, TestCheckRefErrUnsupported)', () => {
    it('should report a key an object type does not have', () => {
      expect(typeErrors('q := {"foo": 1, "bar": 2}\np if { x := 1; data.a.q[x] }')).toEqual([
        'rego_type_error: undefined ref: data.a.q[x]\n\tdata.a.q[x]\n\t         ^\n\t         have (type): number\n\t         want (one of): ["bar" "foo"]',
      ]);
      expect(typeErrors('p if { arr := [{"a": 1, "c": 3}, {"b": 2}]; arr[0].b }')).toEqual([
        'rego_type_error: undefined ref: arr[0].b\n\tarr[0].b\n\t       ^\n\t       have: "b"\n\t       want (one of): ["a" "c"]',
      ]);
      // TestCheckValidErrors "undefined_reference_error".
      expect(typeErrors('x := {"a": 1}\nz if { x[1] == 1 }')).toHaveLength(1);
    });

    it('should report a reference into a scalar', () => {
      expect(typeErrors('p if { arr := [[1, 2], [3, 4]]; arr[1][0].deadbeef }')).toEqual([
        'rego_type_error: undefined ref: arr[1][0].deadbeef\n\tarr[1][0].deadbeef\n\t^^^^^^^^^\n\thave: number',
      ]);
    });

    it('should not check references into input or base data', () => {
      expect(typeErrors('p if { input.a.b[0].c == data.x.y[1] }')).toEqual([]);
    });

    it('should accept a rule looked up by a key from input (rewriteDynamicTerms makes it a var)', () => {
      expect(typeErrors('q.r := {"allow": true}\np if { data.a.q[input.name].allow }')).toEqual([]);
    });

    it('should check == as = (rewriteEquals; OPA docs, errors/match-error)', () => {
      expect(typeErrors('same if 1 == "1"')).toEqual([
        'rego_type_error: match error\n\tleft  : number\n\tright : string',
      ]);
      expect(
        typeErrors(
          'user1 := {"name": "joe", "age": 55}\nuser2 := {"name": "jane"}\nsame if user1 == user2',
        ),
      ).toEqual([
        'rego_type_error: match error\n\tleft  : object<age: number, name: string>\n\tright : object<name: string>',
      ]);
      expect(typeErrors('p if { count(input.a) == 1 }')).toEqual([]);
    });

    it('should check an every domain but not the calls of its body (OPA checks no every body)', () => {
      expect(typeErrors('p if { o := {"a": [1]}; every x in o.b { x > 0 } }')).toHaveLength(1);
      expect(typeErrors('p if { every x in [1] { lower(x) } }')).toEqual([]);
    });
  });

  // Issue 38 (OPA issue 5234): a function argument the body leaves untyped is `any` where it flows
  // into a comprehension, a set or a reference into them; what is known is still checked.
  describe('function arguments flowing into composites (issue 38, OPA issue 5234)', () => {
    const helper = 'g(t, typ) := [{"type": typ, "v": x} | some x in split(t, ",")]';

    it('should accept an argument the body leaves untyped inside a comprehension or a set', () => {
      expect(typeErrors(helper)).toEqual([]);
      expect(typeErrors('f(p, xs) := y if { y := [[p, x] | some x in xs] }')).toEqual([]);
      expect(typeErrors('f(p, xs) := {[p, x] | some x in xs}')).toEqual([]);
      expect(typeErrors('f(k) := y if { y := {k: n | some n in [1]} }')).toEqual([]);
      expect(typeErrors('f(a) := y if { y := {a} }')).toEqual([]);
      expect(typeErrors('f(a) := y if { {a, 3} = y }')).toEqual([]);
      expect(typeErrors('f(t) := [[t, x] | some x in [1, 2]][1]')).toEqual([]);
      expect(typeErrors('f(a) := [{"k": {a}} | true]')).toEqual([]);
    });

    it('should accept such comprehensions as arguments and references into such composites', () => {
      expect(typeErrors('f(t) := concat(",", {t | true})')).toEqual([]);
      expect(typeErrors('f(t) := count({t | true})')).toEqual([]);
      expect(typeErrors('n(xs) := count(xs)\nf(t) := n({t | true})')).toEqual([]);
      expect(typeErrors('f(x) := lower(x.y)')).toEqual([]);
      expect(typeErrors('f(a, b) if { some x in {a, b}; x == 1 }')).toEqual([]);
      expect(typeErrors('f(t) := {y | y := [t, 1][0]}')).toEqual([]);
      expect(typeErrors('f(a, b) := y if { y := {a: b}[a] }')).toEqual([]);
      expect(typeErrors('f(a) := y if { y := {"k": a}.k }')).toEqual([]);
      expect(typeErrors('f(t) := concat(",", {[t] | true})')).toEqual([
        argError(
          'concat',
          '(string, set[array<???>], ???)',
          '(delimiter: string, collection: any<array[string], set[string]>, output: string)',
        ),
      ]);
    });

    it('should give the helper a result type that callers are checked against', () => {
      expect(typeErrors(`${helper}\np := abs(g("a", "b")[0].v)`)).toEqual([
        argError('abs', '(string, ???)', '(x: number, y: number)'),
      ]);
      expect(typeErrors(`${helper}\np if { some e in g("a", 1); lower(e.type) }`)).toEqual([]);
      expect(
        typeErrors(
          'g(typ) := [{"type": typ, "n": n} | some n in [1]]\np if { some e in g("t"); lower(e.n) }',
        ),
      ).toEqual([LOWER_NUMBER]);
      expect(
        typeErrors(
          'shape(a, "set") := {a}\nshape(a, "array") := [[a, n] | some n in [1]]\np := lower(shape(1, "set"))',
        ),
      ).toEqual([
        argError(
          'lower',
          '(any<array[array<any, number>], set[any]>, ???)',
          '(x: string, y: string)',
        ),
      ]);
    });

    it('should still report a match error where the known parts cannot be equal', () => {
      const known = 'f(t) := y if { [[t, 1] | true] = [["a", "b"]]; y := 1 }';
      expect(typeErrors(known)).toEqual([
        matchError('array[array<???, number>]', 'array<array<string, string>>'),
      ]);
      const set = 'f(a) := y if { y := {a}; y == [1] }';
      expect(typeErrors(set)).toEqual([matchError('set[any]', 'array<number>')]);
      expect(typeErrors('f(a) := y if { y := {[a, 1] | true}; lower(y) }')).toEqual([
        argError('lower', '(set[array<any, number>])', '(x: string, y: string)'),
      ]);
    });
  });
});

import { builtinRegistry } from '../builtins/registry';
import '../builtins/all';
import { RegoCompileError, RegoErrorDetail } from '../errors';
import { compileProgram } from './compiler';

function errorsOf(src: string): RegoErrorDetail[] {
  try {
    compileProgram([{ file: 'm.rego', source: src }], builtinRegistry());
  } catch (e) {
    if (e instanceof RegoCompileError) {
      return e.errors;
    }
    throw e;
  }
  return [];
}

describe(compileProgram.name, () => {
  it('should compile when vars are bound after their use (safety reordering)', () => {
    expect(errorsOf('package a\np if { x > 1; x = 2 }\n')).toEqual([]);
  });

  it('should report rego_unsafe_var_error with position when a var is never bound', () => {
    const errs = errorsOf('package a\n\np if {\n  x > 1\n}\n');

    expect(errs).toEqual([
      {
        code: 'rego_unsafe_var_error',
        message: 'var x is unsafe',
        location: { file: 'm.rego', row: 4, col: 3 },
      },
    ]);
  });

  it('should report rego_unsafe_var_error when a head var is not bound by the body', () => {
    const errs = errorsOf('package a\np contains y if { true }\n');

    expect(errs[0]).toMatchObject({ code: 'rego_unsafe_var_error', message: 'var y is unsafe' });
  });

  it('should report rego_recursion_error when rules depend on each other', () => {
    const errs = errorsOf('package a\np if q\nq if p\n');

    expect(errs[0].code).toBe('rego_recursion_error');
    expect(errs[0].message).toContain('data.a.p');
  });

  it('should report rego_type_error naming the function when it is unknown', () => {
    const errs = errorsOf('package a\np if nope(1)\n');

    expect(errs[0]).toMatchObject({
      code: 'rego_type_error',
      message: 'undefined function nope',
      location: { row: 2 },
    });
  });

  it('should report an arity mismatch when a built-in gets too many operands', () => {
    const errs = errorsOf('package a\np if { count(1, 2, 3) }\n');

    // OPA's arityMismatchError (ast/compile.go): operand types and the declared arguments.
    expect(errs[0]).toMatchObject({
      code: 'rego_type_error',
      message:
        'count: arity mismatch\n\thave: (number, number, number)\n\twant: (collection: any<string, array[any], object[any: any], set[any]>)',
    });
  });

  it('should report an unsupported built-in by name when it is not mocked', () => {
    const errs = errorsOf('package a\np if { http.send({}) }\n');

    expect(errs[0].message).toContain('http.send');
  });

  it('should report conflicting rules when a name is both complete and partial', () => {
    const errs = errorsOf('package a\np := 1\np contains 2\n');

    expect(errs[0]).toMatchObject({
      code: 'rego_type_error',
      message: 'conflicting rules data.a.p found',
    });
  });

  it('should report multiple default rules when a rule has two defaults', () => {
    const errs = errorsOf('package a\ndefault p := 1\ndefault p := 2\n');

    expect(errs[0].message).toBe('multiple default rules data.a.p found');
  });

  it('should report invalid argument(s) when a literal operand has the wrong type', () => {
    const errs = errorsOf('package a\np := count(5)\nq := startswith(input.x, "a")\n');

    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ code: 'rego_type_error', location: { row: 2 } });
    expect(errs[0].message).toMatch(/^count: invalid argument\(s\)/);
  });

  it('should reject deprecated built-ins and rules named input when compiling Rego v1', () => {
    const errs = errorsOf('package a\np := any([true])\ninput := 1\n');

    expect(errs.map((e) => e.message).sort()).toEqual([
      'deprecated built-in function calls in expression: any',
      'rules must not shadow input (use a different rule name)',
    ]);
  });

  it('should refuse a literal RE2 pattern when the JavaScript translation cannot express it', () => {
    const errs = errorsOf(
      'package a\np if regex.match(`a(?i:b)`, input.x)\nq if regex.match(`(?i)^ok$`, input.x)\n',
    );

    expect(errs).toHaveLength(1);
    expect(errs[0].message).toContain('regular expression syntax not supported');
  });
});

import { RegoCompileError } from '../errors';
import { compilePolicy } from '../policy';

function strictErrors(source: string): string[] {
  try {
    compilePolicy({ 's.rego': `package s\n${source}\n` }, { strict: true });
  } catch (e) {
    if (e instanceof RegoCompileError) {
      return e.errors.map((x) => `${x.location.row}: ${x.code}: ${x.message}`);
    }
    throw e;
  }
  return [];
}

describe('strict mode', () => {
  it('should reject an unused := assignment and an unused some declaration', () => {
    expect(strictErrors('allow if { user := input.user; input.user == "admin" }')).toEqual([
      '2: rego_compile_error: assigned var user unused',
    ]);
    expect(strictErrors('q if { some x; input.a == 1 }')).toEqual([
      '2: rego_compile_error: declared var x unused',
    ]);
    expect(strictErrors('u if { [a, b] := [1, 2]; a > 0 }')).toEqual([
      '2: rego_compile_error: assigned var b unused',
    ]);
  });

  it('should reject an unused function argument and an unused import', () => {
    expect(strictErrors('f(x, y) := x + 1')).toEqual([
      '2: rego_compile_error: unused argument y. (hint: use _ (wildcard variable) instead)',
    ]);
    expect(strictErrors('import data.foo\nimport data.bar as b\np if { b.x }')).toEqual([
      '2: rego_compile_error: import data.foo unused',
    ]);
  });

  it('should accept used names, wildcards, some-in, every and comprehensions', () => {
    expect(
      strictErrors(
        [
          'import rego.v1',
          'g(_) := 1',
          'h(a) := b if { b := a }',
          'r contains y if { some y in input.a }',
          's := [z | z := 1]',
          't if { every v in input.o { v > 1 } }',
          'w := x if { x := 1 } else := y if { y := 2 }',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('should leave the checks off unless strict mode is asked for', () => {
    expect(() => compilePolicy({ 's.rego': 'package s\nf(x, y) := x' })).not.toThrow();
  });
});

import { RegoCompileError } from '../errors';
import { parseModule } from './module';

function parseError(src: string): RegoCompileError {
  try {
    parseModule(src, 'p.rego');
  } catch (e) {
    if (e instanceof RegoCompileError) {
      return e;
    }
    throw e;
  }
  throw new Error('expected a parse error');
}

describe(parseModule.name, () => {
  it('should read package, imports and rules when the module is Rego v1', () => {
    const sut = parseModule(
      'package a.b\n\nimport rego.v1\nimport data.lib.x as y\n\np := 1\nq contains x if { x := 1 }\nf(x) := x if true\n',
      'p.rego',
    );

    expect(sut.packagePath).toEqual(['a', 'b']);
    expect(sut.imports.map((i) => i.alias)).toEqual([undefined, 'y']);
    expect(sut.rules).toHaveLength(3);
    expect(sut.rules[1].head.key).toBeDefined();
    expect(sut.rules[2].head.args).toHaveLength(1);
  });

  it('should reject a with modifier in a rule head when the rule has no body', () => {
    expect(() => parseModule('package p\nx := f(1) with f as g\n', 'p.rego')).toThrow(
      'p.rego:2: rego_parse_error: unexpected with token',
    );
  });

  it('should chain else branches when a rule has else', () => {
    const sut = parseModule(
      'package a\nd := 1 if { false } else := 2 if { false } else := 3\n',
      'p.rego',
    );

    expect(sut.rules[0].elseRule?.elseRule?.head.value).toMatchObject({ type: 'scalar', value: 3 });
  });

  it('should parse infix operators with OPA precedence when terms mix them', () => {
    const sut = parseModule('package a\np := 1 + 2 * 3 == 7\n', 'p.rego');

    const v = sut.rules[0].head.value;
    expect(v).toMatchObject({ type: 'call', op: { terms: [{ name: 'equal' }] } });
  });

  it('should accept keywords as ref elements when they follow a dot', () => {
    const sut = parseModule('package a\nfoo.if := 1\nnot.x := 2\n', 'p.rego');

    expect(sut.rules).toHaveLength(2);
  });

  it('should report file, row and column when a token is unexpected', () => {
    const err = parseError('package a\n\np if {\n  x := [1, 2\n}\n');

    expect(err.errors[0]).toMatchObject({
      code: 'rego_parse_error',
      location: { file: 'p.rego', row: 5, col: 1 },
    });
  });

  it('should report rego_parse_error when the package is missing', () => {
    const err = parseError('p := 1\n');

    expect(err.errors[0].code).toBe('rego_parse_error');
    expect(err.errors[0].location.row).toBe(1);
  });

  it('should report the position of a non-terminated string when a quote is missing', () => {
    const err = parseError('package a\np := "abc\n');

    expect(err.errors[0]).toMatchObject({
      message: 'non-terminated string',
      location: { row: 2, col: 6 },
    });
  });
});

import '../builtins/all';
import { compilePolicy } from '../policy';
import { BigNum } from './decimal';
import { jsonText } from './json';
import { fromJsonText, parseJsonText } from './json-text';
import { RegoObject } from './value';

describe(fromJsonText.name, () => {
  it('should keep number texts that are not the shortest form, as json.Number does', () => {
    expect(jsonText(fromJsonText('[1.0, 2.50, 1e3, 1.5, 7, -0.0]'))).toBe(
      '[1.0,2.50,1e3,1.5,7,-0.0]',
    );
  });

  it('should keep every digit of big integers', () => {
    expect(fromJsonText('12345678901234567890')).toBe(12345678901234567890n);
    expect(jsonText(fromJsonText('{"a": 1e400}'))).toBe('{"a":1e400}');
    expect(fromJsonText('0.1234567890123456789')).toBeInstanceOf(BigNum);
  });

  it('should give the same values as JSON.parse where no number needs its text', () => {
    const text = '{"a": [1, "x", true, null, {"b": -3}], "c": "1.0 in a string"}';
    expect(jsonText(fromJsonText(text))).toBe(
      jsonText(fromJsonText(JSON.stringify(JSON.parse(text)))),
    );
    expect((fromJsonText('{"a": {"b": 2}}') as RegoObject).get('a')).toBeInstanceOf(RegoObject);
  });

  it('should take the last of repeated keys and replace a lone surrogate as Go does', () => {
    expect(jsonText(fromJsonText('{"a": 1.0, "a": 2.0}'))).toBe('{"a":2.0}');
    expect(fromJsonText('"\\ud800x"')).toBe('\ufffdx');
    expect(fromJsonText('"\\ud83d\\ude00"')).toBe('😀');
  });

  it('should refuse what is not JSON', () => {
    for (const bad of ['{"a": 1.}', '[1.0,]', '01.5', '1.0 2', '"\\x"', '{1.0: 2}', "'a'", '']) {
      expect(() => fromJsonText(bad)).toThrow(SyntaxError);
    }
  });

  it('should give plain JavaScript with the engine numbers for data files', () => {
    expect(parseJsonText('{"n": 1.0, "m": [2]}')).toEqual({
      n: new BigNum('1.0', { coef: 1n, exp: 0 }),
      m: [2],
    });
  });
});

describe('json.unmarshal', () => {
  const run = (expr: string): unknown =>
    compilePolicy({ 'p.rego': `package p\n\nx := ${expr}\n` }).evaluateRule('data.p.x');

  it('should keep the number texts of its JSON, as OPA does', () => {
    expect(run('json.marshal(json.unmarshal(`{"a": 1.0, "b": [2.50, 1e3]}`))')).toBe(
      '{"a":1.0,"b":[2.50,1e3]}',
    );
    expect(run('json.unmarshal(`1.0`) == 1')).toBe(true);
    expect(run('json.marshal(json.unmarshal(`123456789012345678901234567890`))')).toBe(
      '123456789012345678901234567890',
    );
  });
});

describe('yaml.unmarshal', () => {
  it('should keep integers exact up to uint64 and no number text, as OPA through YAMLToJSON', () => {
    const run = (expr: string): unknown =>
      compilePolicy({ 'p.rego': `package p\n\nx := ${expr}\n` }).evaluateRule('data.p.x');
    expect(run('json.marshal(yaml.unmarshal(`[12345678901234567890, 1.0, 7]`))')).toBe(
      '[12345678901234567890,1,7]',
    );
  });
});

import { fromJson, jsonText, toJson } from './json';
import { RegoObject, RegoSet, compareValues, valuesEqual } from './value';

describe(RegoSet.name, () => {
  it('should treat equal values as one element when numbers and composites repeat', () => {
    const sut = RegoSet.from([
      1,
      1.0,
      [1, 'a'],
      [1, 'a'],
      RegoObject.from([['k', 1]]),
      RegoObject.from([['k', 1.0]]),
      '1',
    ]);

    expect(sut.size).toBe(4);
    expect(sut.has([1, 'a'])).toBe(true);
  });

  it('should iterate in OPA order when element types are mixed', () => {
    const sut = RegoSet.from(['b', new RegoSet(), [0], 2, null, false, RegoObject.from([]), 'a']);

    expect(toJson(sut)).toEqual([null, false, 2, 'a', 'b', [0], {}, []]);
  });
});

describe(RegoObject.name, () => {
  it('should keep non-string keys apart from strings when keys look alike', () => {
    const sut = RegoObject.from([
      ['1', 'string'],
      [1, 'number'],
      [[1], 'array'],
    ]);

    expect(sut.get(1)).toBe('number');
    expect(sut.get('1')).toBe('string');
    expect(
      toJson(
        RegoObject.from([
          [[1], 'array'],
          [2, 'n'],
        ]),
      ),
    ).toEqual({ '2': 'n', '[1]': 'array' });
  });

  it('should not expose Object.prototype members when a lazy JSON object is read', () => {
    const sut = fromJson(JSON.parse('{"a": 1, "__proto__": {"x": 1}}')) as RegoObject;

    expect(sut.get('constructor')).toBeUndefined();
    expect(sut.get('toString')).toBeUndefined();
    expect(sut.get('a')).toBe(1);
    expect(jsonText(sut.get('__proto__')!)).toBe('{"x":1}');
  });

  it('should convert members on first access when built lazily from JSON', () => {
    const sut = fromJson({ a: { b: [1, { c: 'x' }] } }) as RegoObject;

    expect(jsonText(sut)).toBe('{"a":{"b":[1,{"c":"x"}]}}');
    expect(sut.size).toBe(1);
  });
});

describe(compareValues.name, () => {
  it('should compare numbers by value when one is a bigint', () => {
    expect(compareValues(2n ** 64n, 1e3)).toBe(1);
    expect(valuesEqual(3, 3.0)).toBe(true);
    expect(compareValues(-(2n ** 64n), -1.5)).toBe(-1);
  });
});

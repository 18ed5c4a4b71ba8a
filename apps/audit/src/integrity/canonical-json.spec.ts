import { canonicalJson } from './canonical-json';

describe(canonicalJson.name, () => {
  it('should sort keys at every depth when objects are nested', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('should give the same text when the same value is built in another key order', () => {
    expect(canonicalJson({ x: 'é\n"', y: 1.5 })).toBe(
      canonicalJson(JSON.parse('{"y":1.5,"x":"é\\n\\""}')),
    );
  });

  it('should leave out undefined members when an object has them', () => {
    expect(canonicalJson({ a: undefined, b: true })).toBe('{"b":true}');
  });

  it('should sort index-like keys as text when an object has numeric keys', () => {
    expect(canonicalJson({ 10: 'a', 2: 'b', x: { 1: true } })).toBe(
      '{"10":"a","2":"b","x":{"1":true}}',
    );
  });

  it('should write an undefined array item as null when an array holds one', () => {
    expect(canonicalJson([1, undefined, { b: 2, a: [] }])).toBe('[1,null,{"a":[],"b":2}]');
  });

  it('should leave out the named top-level member when one is omitted', () => {
    expect(canonicalJson({ hash: 'x', b: { hash: 1 }, a: 2 }, 'hash')).toBe(
      '{"a":2,"b":{"hash":1}}',
    );
    expect(canonicalJson({ hash: 'x', 10: 1 }, 'hash')).toBe('{"10":1}');
  });
});

describe('canonicalJson on flat values', () => {
  /** The general path, for comparison: the same value inside an array of two. */
  const general = (value: unknown): string =>
    canonicalJson([value, { nested: true }]).slice(1, -'{"nested":true}'.length - 2);

  it('should write what the general path writes when an object or array holds only scalars', () => {
    const values: unknown[] = [
      { id: 'a', label: 'b', type: 'AGENT' },
      { type: 'AGENT', id: 'a', label: null },
      { b: 1, a: 2 },
      { 1: 'x', a: 'y' },
      { 10: 'x', 2: 'y' },
      { a: undefined, b: 1 },
      { Z: 1, a: 2, é: 3, '': 4 },
      ['x', 1, null, true],
      [undefined, 1],
      {},
      [],
    ];
    for (const value of values) {
      expect(canonicalJson(value)).toBe(general(value));
    }
  });
});

import { decodeCursor, encodeCursor, facetsOf, textQueryOf } from './search-query';

describe('search-query', () => {
  it('should make an OR of the words with prefixes for longer ones when given free text', () => {
    expect(textQueryOf('Translate legal contracts to FR')).toBe(
      'translate:* | legal:* | contracts:* | to | fr',
    );
  });

  it('should keep only letters and digits when the text carries tsquery syntax', () => {
    expect(textQueryOf("a & !b | c:* <-> 'd'")).toBe('a | b | c | d');
    expect(textQueryOf('  ::&|  ')).toBeUndefined();
    expect(textQueryOf(undefined)).toBeUndefined();
  });

  it('should name one facet per given filter, lower-cased, when filters are given', () => {
    expect(
      facetsOf({ q: 'x', skill: 'Currency-Convert', tag: ' Finance ', inputMode: 'text/plain' }),
    ).toEqual(['skill:currency-convert', 'tag:finance', 'input:text/plain']);
    expect(facetsOf({ tag: '  ' })).toEqual([]);
  });

  it('should read back a cursor it wrote and refuse one it did not', () => {
    const cursor = { rank: 0.0607927, name: 'billing', id: '3f1b2c4d-0000-4000-8000-000000000001' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor('not-a-cursor')).toBeUndefined();
    expect(decodeCursor(Buffer.from('[1,"a","b"]').toString('base64url'))).toBeUndefined();
  });
});

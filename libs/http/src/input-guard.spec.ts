import { MAX_BODY_DEPTH, unacceptableInput } from './input-guard';

describe(unacceptableInput.name, () => {
  const nested = (levels: number): unknown =>
    JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`) as unknown;

  it.each([
    ['plain text and emoji', { name: 'Zoë 👩‍👩‍👧', tags: ['\u202eRTL'] }],
    ['nesting at the limit', nested(MAX_BODY_DEPTH)],
    ['numbers, booleans and null', [1, true, null]],
  ])('should accept %s', (_, value) => {
    expect(unacceptableInput(value)).toBeUndefined();
  });

  it.each([
    ['a lone high surrogate', { email: 'x\ud800' }, 'email'],
    ['a lone low surrogate in an array', { tags: ['ok', '\udfff'] }, 'tags.1'],
    ['NUL', { owner: { name: 'a\u0000b' } }, 'owner.name'],
    ['a key with NUL', { 'k\u0000': 1 }, 'k\u0000'],
  ])('should refuse %s and name the field', (_, value, field) => {
    expect(unacceptableInput(value)).toEqual({ field, message: expect.stringContaining('NUL') });
  });

  it('should refuse nesting past the limit without overflowing the stack', () => {
    expect(unacceptableInput(nested(MAX_BODY_DEPTH + 1))?.message).toContain('deeper than');
    expect(unacceptableInput(nested(100_000))?.message).toContain('deeper than');
  });
});

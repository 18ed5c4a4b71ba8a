import { applyMasks, textOf, toRegExp } from './apply-masks';

describe('applyMasks', () => {
  const message = {
    params: {
      name: 'lookup_customer',
      arguments: {
        ssn: '123-45-6789',
        note: 'call 123-45-6789 or 987-65-4321 today',
        tags: ['a', 'ssn 111-22-3333'],
      },
    },
  };

  it('should replace the whole value when a mask has only a path', () => {
    const sut = applyMasks(message, [{ path: 'params.arguments.ssn' }]);
    expect((sut.json as typeof message).params.arguments.ssn).toBe('[MASKED:MASKED]');
    expect(sut.maskedFields).toEqual(['params.arguments.ssn']);
  });

  it('should replace each match with the label when a mask has a pattern', () => {
    const sut = applyMasks(message, [
      { path: 'params.arguments.note', pattern: '\\b\\d{3}-\\d{2}-\\d{4}\\b', label: 'SSN' },
    ]);
    expect((sut.json as typeof message).params.arguments.note).toBe(
      'call [MASKED:SSN] or [MASKED:SSN] today',
    );
    expect(sut.text).toContain('call [MASKED:SSN] or [MASKED:SSN] today');
  });

  it('should follow array indexes and leave the original untouched when masking', () => {
    const sut = applyMasks(message, [
      { path: 'params.arguments.tags.1', pattern: '\\d{3}-\\d{2}-\\d{4}', label: 'SSN' },
    ]);
    expect((sut.json as typeof message).params.arguments.tags).toEqual(['a', 'ssn [MASKED:SSN]']);
    expect(message.params.arguments.tags[1]).toBe('ssn 111-22-3333');
  });

  it('should mask every string below the root when the path is empty', () => {
    const sut = applyMasks(message, [{ path: '', pattern: '\\d{3}-\\d{2}-\\d{4}', label: 'SSN' }]);
    expect(sut.text).not.toMatch(/\d{3}-\d{2}-\d{4}/);
    expect(sut.maskedFields).toEqual(['']);
  });

  it('should change nothing and report no field when the path does not exist or nothing matches', () => {
    const sut = applyMasks(message, [
      { path: 'params.missing' },
      { path: 'params.name', pattern: '\\d+' },
    ]);
    expect(sut.json).toEqual(message);
    expect(sut.maskedFields).toEqual([]);
  });

  it('should mask the whole value when the pattern cannot be compiled', () => {
    const sut = applyMasks(message, [
      { path: 'params.arguments.note', pattern: '(unclosed', label: 'X' },
    ]);
    expect((sut.json as typeof message).params.arguments.note).toBe('[MASKED:X]');
  });

  it('should honour a leading inline flag when converting a Rego pattern', () => {
    expect(toRegExp('(?i)ignore previous')!.test('IGNORE PREVIOUS')).toBe(true);
    expect(textOf({ a: 'x', b: [1, 'y', { c: 'z' }] })).toBe('x\ny\nz');
  });
});

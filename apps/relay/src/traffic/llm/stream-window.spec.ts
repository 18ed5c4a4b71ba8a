import { maskedChoices, releasableEnd, windowCompletion } from './stream-window';

const SSN = { path: '', pattern: '\\b\\d{3}-\\d{2}-\\d{4}\\b', label: 'SSN' };

describe(releasableEnd.name, () => {
  it('should hold back the last word while the stream goes on', () => {
    expect(releasableEnd('Hello wor', [], false)).toBe('Hello '.length);
  });

  it('should release everything when the stream has ended', () => {
    expect(releasableEnd('Hello wor', [], true)).toBe(9);
  });

  it('should not split a mask match that spans the cut', () => {
    const sut = releasableEnd(
      'ssn is 123-45 6789 more',
      [{ path: '', pattern: '\\d{3}-\\d{2} \\d{4} more', label: 'X' }],
      false,
    );

    expect(sut).toBe('ssn is '.length);
  });

  it('should release nothing when the text has no whitespace yet', () => {
    expect(releasableEnd('123-45-67', [SSN], false)).toBe(0);
  });
});

describe(maskedChoices.name, () => {
  it('should mask the window text as a completion policy would mask a whole completion', () => {
    const window = windowCompletion('m', [
      { index: 0, content: 'my ssn is 123-45-6789 ', toolCalls: [] },
    ]);

    const sut = maskedChoices(window, [SSN]);

    expect(sut).toEqual([{ content: 'my ssn is [MASKED:SSN] ' }]);
  });

  it('should replace the whole content when a mask names its path without a pattern', () => {
    const window = windowCompletion('m', [{ index: 0, content: 'secret plans ', toolCalls: [] }]);

    const sut = maskedChoices(window, [{ path: 'choices.0.message.content', label: 'PLAN' }]);

    expect(sut).toEqual([{ content: '[MASKED:PLAN]' }]);
  });
});

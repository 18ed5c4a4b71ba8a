import { copyTextFields } from './copy-text';

describe(copyTextFields.name, () => {
  it('should split on tabs and read \\N as NULL', () => {
    expect(copyTextFields('a\t\\N\t\tb')).toEqual(['a', null, '', 'b']);
  });

  it('should unescape what COPY TO escapes, keeping a literal \\N text', () => {
    expect(copyTextFields('tab\\there\\nnew\\rline\t\\\\x0102\t\\\\N\t\\b\\f\\v')).toEqual([
      'tab\there\nnew\rline',
      '\\x0102',
      '\\N',
      '\b\f\v',
    ]);
  });

  it('should unescape every escape of a field that starts with an escaped backslash', () => {
    expect(copyTextFields('\\\\a\\tb\\\\\t\\\\')).toEqual(['\\a\tb\\', '\\']);
  });

  it('should leave non-ASCII text as it is', () => {
    expect(copyTextFields('Zürich 🎉\t"quoted"')).toEqual(['Zürich 🎉', '"quoted"']);
  });
});

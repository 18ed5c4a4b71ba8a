import { StreamLanguage } from '@codemirror/language';

const KEYWORDS =
  /^(package|import|default|if|else|contains|some|every|in|not|with|as|true|false|null)\b/;

/** Rego (D22, v1 syntax) for highlighting: keywords, strings, numbers, comments, operators. */
export const rego = StreamLanguage.define({
  name: 'rego',
  token(stream) {
    if (stream.eatSpace()) {
      return null;
    }
    if (stream.match('#')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"/) || stream.match(/^`[^`]*`/)) {
      return 'string';
    }
    if (stream.match(/^-?\d+(\.\d+)?/)) {
      return 'number';
    }
    if (stream.match(KEYWORDS)) {
      return 'keyword';
    }
    if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
      return 'variableName';
    }
    if (stream.match(/^(:=|==|!=|<=|>=|[=<>+\-*/|&])/)) {
      return 'operator';
    }
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '#' } },
});

export interface CompileProblem {
  line: number;
  column: number;
  message: string;
}

/** D24's 400 lists each error as `line R, column C: code: message`. */
export function compileProblems(
  errors: Array<{ field: string; message: string }>,
): CompileProblem[] {
  return errors.flatMap((error) => {
    const found = /^line (\d+), column (\d+): (.*)$/s.exec(error.message);
    return found ? [{ line: Number(found[1]), column: Number(found[2]), message: found[3] }] : [];
  });
}

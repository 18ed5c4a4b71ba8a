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

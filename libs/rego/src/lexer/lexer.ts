import { compileError } from '../errors';
import { JSON_ESCAPES } from '../values/json-text';
import { TemplatePart, Token } from './token';

const OPS = [
  ':=',
  '==',
  '!=',
  '<=',
  '>=',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '.',
  ',',
  ';',
  ':',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
];

/** Splits Rego source into tokens; comments and whitespace are dropped but remembered as flags. */
export function tokenize(src: string, file: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let row = 1;
  let lineStart = 0;
  let newline = false;
  let space = false;
  const fail = (msg: string, at: number): never => {
    throw compileError('rego_parse_error', msg, { file, row, col: at - lineStart + 1 });
  };
  while (i < src.length) {
    const c = src[i];
    if (c === '\n') {
      i++;
      row++;
      lineStart = i;
      newline = true;
      space = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      space = true;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') {
        i++;
      }
      continue;
    }
    const start = i;
    const col = i - lineStart + 1;
    const push = (kind: Token['kind'], text: string, raw?: boolean): void => {
      out.push({
        kind,
        text,
        row,
        col,
        start,
        end: i,
        newlineBefore: newline,
        spaceBefore: space,
        raw,
      });
      newline = false;
      space = false;
    };
    if (isIdentStart(c)) {
      while (i < src.length && isIdentPart(src[i])) {
        i++;
      }
      push('ident', src.slice(start, i));
      continue;
    }
    if (isDigit(c)) {
      while (i < src.length && isDigit(src[i])) {
        i++;
      }
      if (src[i] === '.' && isDigit(src[i + 1] ?? '')) {
        i++;
        while (i < src.length && isDigit(src[i])) {
          i++;
        }
      }
      if (src[i] === 'e' || src[i] === 'E') {
        let j = i + 1;
        if (src[j] === '+' || src[j] === '-') {
          j++;
        }
        if (isDigit(src[j] ?? '')) {
          i = j;
          while (i < src.length && isDigit(src[i])) {
            i++;
          }
        }
      }
      push('number', src.slice(start, i));
      continue;
    }
    if (c === '"') {
      i++;
      let s = '';
      for (;;) {
        if (i >= src.length || src[i] === '\n') {
          fail('non-terminated string', start);
        }
        const d = src[i];
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\') {
          const e = src[i + 1];
          i += 2;
          switch (e) {
            case '"':
            case '\\':
            case '/':
              s += e;
              break;
            case 'b':
              s += '\b';
              break;
            case 'f':
              s += '\f';
              break;
            case 'n':
              s += '\n';
              break;
            case 'r':
              s += '\r';
              break;
            case 't':
              s += '\t';
              break;
            case 'u': {
              const hex = src.slice(i, i + 4);
              if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
                fail('illegal escape sequence', i);
              }
              s += String.fromCharCode(parseInt(hex, 16));
              i += 4;
              break;
            }
            default:
              fail('illegal escape sequence', i - 2);
          }
          continue;
        }
        s += d;
        i++;
      }
      push('string', s);
      continue;
    }
    if (c === '`') {
      const endAt = src.indexOf('`', i + 1);
      if (endAt < 0) {
        fail('non-terminated raw string', start);
      }
      const s = src.slice(i + 1, endAt);
      for (const ch of s) {
        if (ch === '\n') {
          row++;
        }
      }
      const lastNl = s.lastIndexOf('\n');
      const rawStart = i + 1;
      i = endAt + 1;
      push('string', s, true);
      if (lastNl >= 0) {
        lineStart = rawStart + lastNl + 1;
      }
      continue;
    }
    if (c === '$' && (src[i + 1] === '"' || src[i + 1] === '`')) {
      const raw = src[i + 1] === '`';
      const t = lexTemplate(src, i + 2, raw, row, lineStart, fail);
      i = t.end;
      const parts = t.parts;
      row = t.row;
      push('template', '', raw);
      out[out.length - 1].parts = parts;
      lineStart = t.lineStart;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) {
      fail(`illegal token`, i);
    }
    i += op!.length;
    push('op', op!);
  }
  out.push({
    kind: 'eof',
    text: '',
    row,
    col: i - lineStart + 1,
    start: i,
    end: i,
    newlineBefore: true,
    spaceBefore: true,
  });
  return out;
}

interface TemplateScan {
  parts: TemplatePart[];
  end: number;
  row: number;
  lineStart: number;
}

const ESCAPES: Record<string, string> = { ...JSON_ESCAPES, '{': '{', '}': '}' };

/** Scans a template string body from `i` (after `$"` or `$\``) to its closing quote. */
function lexTemplate(
  src: string,
  start: number,
  raw: boolean,
  row0: number,
  lineStart0: number,
  fail: (msg: string, at: number) => never,
): TemplateScan {
  const parts: TemplatePart[] = [];
  let text = '';
  let i = start;
  let row = row0;
  let lineStart = lineStart0;
  const close = raw ? '`' : '"';
  for (;;) {
    if (i >= src.length || (!raw && src[i] === '\n')) {
      fail('non-terminated template string', start - 2);
    }
    const c = src[i];
    if (c === close) {
      i++;
      break;
    }
    if (c === '\n') {
      row++;
      lineStart = i + 1;
    }
    // In a raw template (`$\`…\``) only `\{` is an escape: a literal brace, not an expression.
    if (raw && c === '\\' && src[i + 1] === '{') {
      text += '{';
      i += 2;
      continue;
    }
    if (!raw && c === '\\') {
      const e = src[i + 1];
      if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(src.slice(i + 2, i + 6))) {
        text += String.fromCharCode(parseInt(src.slice(i + 2, i + 6), 16));
        i += 6;
        continue;
      }
      if (!(e in ESCAPES)) {
        fail('illegal escape sequence', i);
      }
      text += ESCAPES[e];
      i += 2;
      continue;
    }
    if (c === '{') {
      if (text) {
        parts.push({ text });
        text = '';
      }
      const exprStart = i + 1;
      const exprRow = row;
      const exprCol = exprStart - lineStart + 1;
      let depth = 1;
      let j = exprStart;
      while (depth > 0) {
        if (j >= src.length) {
          fail('non-terminated template string', start - 2);
        }
        const d = src[j];
        if (d === '"') {
          j++;
          while (j < src.length && src[j] !== '"') {
            j += src[j] === '\\' ? 2 : 1;
          }
        } else if (d === '`') {
          j = src.indexOf('`', j + 1);
          if (j < 0) {
            fail('non-terminated template string', start - 2);
          }
        } else if (d === '{') {
          depth++;
        } else if (d === '}') {
          depth--;
        } else if (d === '\n') {
          row++;
          lineStart = j + 1;
        }
        j++;
      }
      parts.push({ src: src.slice(exprStart, j - 1), row: exprRow, col: exprCol });
      i = j;
      continue;
    }
    text += c;
    i++;
  }
  if (text) {
    parts.push({ text });
  }
  return { parts, end: i, row, lineStart };
}

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || isDigit(c);
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

import { setFlagsFromString } from 'node:v8';
import { RegoEvalError } from '../errors';
import { Value } from '../values/value';
import { BuiltinDef } from './types';
import { GlobSyntaxError, globsIntersect } from './glob-intersection';
import { builtinErr, def, smallInt, str } from './helpers';

const cache = new Map<string, RegExp>();
let linearFallback = false;

/** V8 can switch a regex to its linear-time engine when it backtracks excessively. */
function enableLinearFallback(): void {
  if (!linearFallback) {
    linearFallback = true;
    try {
      setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    } catch {
      // Older runtimes: keep the backtracking engine.
    }
  }
}

const POSIX: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\t\\n\\v\\f\\r ',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  word: 'A-Za-z0-9_',
};

/** RE2 constructs with no JavaScript translation here: flag groups after the start, \\Q…\\E, \\C. */
export function unsupportedRe2(pattern: string): boolean {
  const rest = pattern.replace(/^\(\?[imsU]+\)/, '');
  return (
    /\(\?[imsU-]+[:)]/.test(rest) || /(^|[^\\])\\[QC]/.test(rest) || /^\(\?[^)]*U/.test(pattern)
  );
}

/** Compiles an RE2 pattern to a JS RegExp (cached); throws a builtin error when invalid. */
export function re2(pattern: string, global = false): RegExp {
  const key = (global ? 'g' : '') + pattern;
  let r = cache.get(key);
  if (r) {
    r.lastIndex = 0;
    return r;
  }
  enableLinearFallback();
  if (unsupportedRe2(pattern)) {
    // Not an ordinary built-in error (which is undefined when not strict): answering "no match"
    // for a valid RE2 pattern would be a wrong answer, so evaluation stops.
    throw new RegoEvalError(
      'eval_builtin_error',
      `regular expression syntax not supported by this engine: ${pattern}`,
    );
  }
  let src = pattern;
  let flags = global ? 'g' : '';
  const m = /^\(\?([imsU]+)\)/.exec(src);
  if (m) {
    src = src.slice(m[0].length);
    for (const f of m[1]) {
      if (f !== 'U' && !flags.includes(f)) {
        flags += f;
      }
    }
  }
  src = src
    .replace(/\(\?P</g, '(?<')
    .replace(/\\z/g, '$(?![\\s\\S])')
    .replace(/\\A/g, '^')
    .replace(/\[:(\w+):\]/g, (all, name: string) => POSIX[name] ?? all)
    .replace(/\\p([A-Z])/g, '\\p{$1}')
    .replace(/\\P([A-Z])/g, '\\P{$1}');
  if (/\\[pP]\{/.test(src)) {
    flags += 'u';
  }
  try {
    r = new RegExp(src, flags);
  } catch {
    throw builtinErr(`error parsing regexp: invalid pattern: \`${pattern}\``);
  }
  if (cache.size > 1000) {
    cache.clear();
  }
  cache.set(key, r);
  return r;
}

function findAll(pattern: string, s: string, n: number): RegExpExecArray[] {
  const r = re2(pattern, true);
  const out: RegExpExecArray[] = [];
  let m: RegExpExecArray | null;
  while ((n < 0 || out.length < n) && (m = r.exec(s)) !== null) {
    out.push(m);
    if (m[0] === '') {
      r.lastIndex++;
    }
  }
  r.lastIndex = 0;
  return out;
}

/** Go's regexp ReplaceAllString template: `$1`, `${1}`, `${name}`, `$$`. */
function expand(repl: string, m: RegExpExecArray): string {
  return repl.replace(
    /\$(\$|\{(\w+)\}|(\w+))/g,
    (_all, tok: string, braced?: string, bare?: string) => {
      if (tok === '$') {
        return '$';
      }
      const name = braced ?? bare ?? '';
      const v = /^\d+$/.test(name) ? m[Number(name)] : m.groups?.[name];
      return v ?? '';
    },
  );
}

function templateMatch(tpl: string, s: string, open: string, close: string): boolean {
  let src = '';
  let i = 0;
  while (i < tpl.length) {
    const a = tpl.indexOf(open, i);
    if (a < 0) {
      src += escape(tpl.slice(i));
      break;
    }
    const b = tpl.indexOf(close, a + open.length);
    if (b < 0) {
      throw builtinErr('unbalanced delimiters');
    }
    src += escape(tpl.slice(i, a)) + '(?:' + tpl.slice(a + open.length, b) + ')';
    i = b + close.length;
  }
  return re2('^' + src + '$').test(s);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** gobwas/glob pattern → RegExp. */
export function globRegex(pattern: string, delims: string[] | null): RegExp {
  const key = 'glob:' + (delims ? delims.join('') : '\u0000') + ':' + pattern;
  const hit = cache.get(key);
  if (hit) {
    return hit;
  }
  const notDelim =
    delims && delims.length > 0
      ? '[^' + delims.map((d) => d.replace(/[\]\\^-]/g, '\\$&')).join('') + ']'
      : '[\\s\\S]';
  let i = 0;
  const parse = (inAlt: boolean): string => {
    let out = '';
    while (i < pattern.length) {
      const c = pattern[i];
      if (inAlt && (c === ',' || c === '}')) {
        return out;
      }
      i++;
      if (c === '*') {
        if (pattern[i] === '*') {
          i++;
          out += '[\\s\\S]*';
        } else {
          out += notDelim + '*';
        }
      } else if (c === '?') {
        out += notDelim;
      } else if (c === '[') {
        const end = pattern.indexOf(']', i);
        if (end < 0) {
          throw builtinErr('unexpected end of input');
        }
        let body = pattern.slice(i, end);
        i = end + 1;
        const neg = body.startsWith('!');
        if (neg) {
          body = body.slice(1);
        }
        out += '[' + (neg ? '^' : '') + body.replace(/\\/g, '\\\\') + ']';
      } else if (c === '{') {
        const alts: string[] = [];
        for (;;) {
          alts.push(parse(true));
          const d = pattern[i++];
          if (d === '}') {
            break;
          }
          if (d !== ',') {
            throw builtinErr('unexpected end of input');
          }
        }
        out += '(?:' + alts.join('|') + ')';
      } else if (c === '\\' && i < pattern.length) {
        out += escape(pattern[i++]);
      } else {
        out += escape(c);
      }
    }
    return out;
  };
  const r = new RegExp('^' + parse(false) + '$');
  cache.set(key, r);
  return r;
}

function matchAll(m: RegExpExecArray[]): Value[] {
  return m.map((x) => [...x].map((g) => g ?? ''));
}

export const REGEX_BUILTINS: BuiltinDef[] = [
  def('regex.match', 2, ([p, s]) => re2(str(p, 1)).test(str(s, 2))),
  def('re_match', 2, ([p, s]) => re2(str(p, 1)).test(str(s, 2))),
  def('regex.is_valid', 1, ([p]) => {
    if (typeof p !== 'string') {
      return false;
    }
    if (unsupportedRe2(p)) {
      return true;
    }
    try {
      re2(p);
      return true;
    } catch {
      return false;
    }
  }),
  def('regex.split', 2, ([p, s]) => str(s, 2).split(re2(str(p, 1), true))),
  def('regex.find_n', 3, ([p, s, n]) =>
    findAll(str(p, 1), str(s, 2), smallInt(n, 3)).map((m) => m[0]),
  ),
  def('regex.find_all_string_submatch_n', 3, ([p, s, n]) =>
    matchAll(findAll(str(p, 1), str(s, 2), smallInt(n, 3))),
  ),
  def('regex.replace', 3, ([s, p, r]) => {
    const text = str(s, 1);
    const repl = str(r, 3);
    return text.replace(re2(str(p, 2), true), (...args: unknown[]) => {
      const groups = args
        .filter((a): a is string | undefined => typeof a === 'string' || a === undefined)
        .slice(0, -1);
      const named =
        typeof args[args.length - 1] === 'object'
          ? (args[args.length - 1] as Record<string, string>)
          : undefined;
      const m = Object.assign(
        groups.map((g) => g ?? ''),
        { groups: named, index: 0, input: text },
      ) as unknown as RegExpExecArray;
      return expand(repl, m);
    });
  }),
  def('regex.template_match', 4, ([t, s, a, b]) =>
    templateMatch(str(t, 1), str(s, 2), str(a, 3), str(b, 4)),
  ),
  def('glob.match', 3, ([p, d, s]) => {
    let delims: string[] | null;
    if (d === null) {
      delims = null;
    } else if (Array.isArray(d)) {
      delims = d.map((x) => str(x, 2));
      if (delims.length === 0) {
        delims = ['.'];
      }
    } else {
      throw builtinErr('operand 2 must be one of {array, null}');
    }
    return globRegex(str(p, 1), delims).test(str(s, 3));
  }),
  def('regex.globs_match', 2, ([a, b]) => {
    const g1 = str(a, 1);
    const g2 = str(b, 2);
    try {
      return globsIntersect(g1, g2);
    } catch (e) {
      if (e instanceof GlobSyntaxError) {
        throw builtinErr(e.message);
      }
      throw e;
    }
  }),
  def('glob.quote_meta', 1, ([p]) => str(p, 1).replace(/[*?[\]{}\\]/g, '\\$&')),
];

import { numberFromText } from '../values/decimal';
import { jsonText } from '../values/json';
import { RegoObject, RegoSet, Value, typeName } from '../values/value';
import { BuiltinDef, BuiltinError } from './types';
import {
  arr,
  builtinErr,
  def,
  elems,
  isNum,
  num,
  obj,
  oneOf,
  smallInt,
  str,
  typeErr,
} from './helpers';
import { sprintf } from './sprintf';

function runes(s: string): string[] {
  return [...s];
}

function strList(v: Value, pos: number): string[] {
  if (typeof v === 'string') {
    return [v];
  }
  if (!Array.isArray(v) && !(v instanceof RegoSet)) {
    throw oneOf(pos, 'string, set, array', v);
  }
  const xs = Array.isArray(v) ? v : v.values();
  for (const x of xs) {
    if (typeof x !== 'string') {
      throw new BuiltinError(
        'eval_type_error',
        `operand ${pos} must be array of strings but got array containing ${typeName(x)}`,
      );
    }
  }
  return xs as string[];
}

function trimSet(s: string, cut: string, left: boolean, right: boolean): string {
  const cs = new Set(runes(cut));
  const rs = runes(s);
  let a = 0;
  let b = rs.length;
  while (left && a < b && cs.has(rs[a])) {
    a++;
  }
  while (right && b > a && cs.has(rs[b - 1])) {
    b--;
  }
  return rs.slice(a, b).join('');
}

function indexOfRunes(s: string, sub: string, from = 0): number {
  const i = s.indexOf(sub, from);
  return i < 0 ? -1 : runes(s.slice(0, i)).length;
}

function replaceN(patterns: RegoObject, s: string): string {
  const pairs: [string, string][] = [];
  for (const [k, v] of patterns.entries()) {
    if (typeof k !== 'string') {
      throw new BuiltinError('eval_type_error', 'operand 1 non-string key found in pattern object');
    }
    if (typeof v !== 'string') {
      throw new BuiltinError(
        'eval_type_error',
        'operand 1 non-string value found in pattern object',
      );
    }
    pairs.push([k, v]);
  }
  let out = '';
  let i = 0;
  while (i <= s.length) {
    const hit = pairs.find(([k]) => s.startsWith(k, i) && (k !== '' || true));
    if (hit && hit[0] !== '') {
      out += hit[1];
      i += hit[0].length;
      continue;
    }
    if (hit && hit[0] === '') {
      out += hit[1];
    }
    if (i < s.length) {
      out += s[i];
    }
    i++;
  }
  return out;
}

function formatInt(v: Value, base: Value): string {
  const n = num(v, 1);
  const b = num(base, 2);
  if (![2, 8, 10, 16].includes(Number(b))) {
    throw new BuiltinError('eval_type_error', 'operand 2 must be one of {2, 8, 10, 16}');
  }
  const i = typeof n === 'bigint' ? n : BigInt(Math.trunc(n));
  return i.toString(Number(b));
}

function concat(d: Value, xs: Value): string {
  const sep = str(d, 1);
  const items = elems(xs, 2, 'one of {array, set}');
  return items
    .map((x) => {
      if (typeof x !== 'string') {
        throw typeErr(2, 'one of {array, set} of strings', xs);
      }
      return x;
    })
    .join(sep);
}

export const STRING_BUILTINS: BuiltinDef[] = [
  def('concat', 2, ([d, xs]) => concat(d, xs)),
  def('contains', 2, ([a, b]) => str(a, 1).includes(str(b, 2))),
  def('startswith', 2, ([a, b]) => str(a, 1).startsWith(str(b, 2))),
  def('endswith', 2, ([a, b]) => str(a, 1).endsWith(str(b, 2))),
  def('lower', 1, ([a]) => str(a, 1).toLowerCase()),
  def('upper', 1, ([a]) => str(a, 1).toUpperCase()),
  def('split', 2, ([a, b]) => {
    const s = str(a, 1);
    const d = str(b, 2);
    return d === '' ? runes(s) : s.split(d);
  }),
  def('replace', 3, ([a, b, c]) => str(a, 1).split(str(b, 2)).join(str(c, 3))),
  def('strings.replace_n', 2, ([p, s]) => replaceN(obj(p, 1), str(s, 2))),
  def('trim', 2, ([a, b]) => trimSet(str(a, 1), str(b, 2), true, true)),
  def('trim_left', 2, ([a, b]) => trimSet(str(a, 1), str(b, 2), true, false)),
  def('trim_right', 2, ([a, b]) => trimSet(str(a, 1), str(b, 2), false, true)),
  def('trim_prefix', 2, ([a, b]) => {
    const s = str(a, 1);
    const p = str(b, 2);
    return s.startsWith(p) ? s.slice(p.length) : s;
  }),
  def('trim_suffix', 2, ([a, b]) => {
    const s = str(a, 1);
    const p = str(b, 2);
    return p !== '' && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
  }),
  def('trim_space', 1, ([a]) => str(a, 1).replace(/^[\s\u0085\u00a0]+|[\s\u0085\u00a0]+$/gu, '')),
  def('sprintf', 2, ([f, xs]) => sprintf(str(f, 1), arr(xs, 2))),
  def('format_int', 2, ([v, b]) => formatInt(v, b)),
  def('indexof', 2, ([a, b]) => indexOfRunes(str(a, 1), str(b, 2))),
  def('indexof_n', 2, ([a, b]) => {
    const s = str(a, 1);
    const sub = str(b, 2);
    const out: Value[] = [];
    for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + 1)) {
      out.push(runes(s.slice(0, i)).length);
      if (sub === '' && i >= s.length) {
        break;
      }
    }
    return out;
  }),
  def('substring', 3, ([a, b, c]) => {
    const rs = runes(str(a, 1));
    const off = smallInt(b, 2);
    const len = smallInt(c, 3);
    if (off < 0) {
      throw builtinErr('negative offset');
    }
    if (off >= rs.length) {
      return '';
    }
    return (len < 0 ? rs.slice(off) : rs.slice(off, off + len)).join('');
  }),
  def('strings.reverse', 1, ([a]) => runes(str(a, 1)).reverse().join('')),
  def('strings.count', 2, ([a, b]) => {
    const s = str(a, 1);
    const sub = str(b, 2);
    return sub === '' ? runes(s).length + 1 : s.split(sub).length - 1;
  }),
  def('strings.any_prefix_match', 2, ([a, b]) => {
    const xs = strList(a, 1);
    const ps = strList(b, 2);
    return xs.some((x) => ps.some((p) => x.startsWith(p)));
  }),
  def('strings.any_suffix_match', 2, ([a, b]) => {
    const xs = strList(a, 1);
    const ps = strList(b, 2);
    return xs.some((x) => ps.some((p) => x.endsWith(p)));
  }),
  def('to_number', 1, ([v]) => {
    if (v === null) {
      return 0;
    }
    if (typeof v === 'boolean') {
      return v ? 1 : 0;
    }
    if (isNum(v)) {
      return v;
    }
    const s = str(v, 1);
    if (!/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) {
      const special = /^[+-]?(nan|inf|infinity)$/i.test(s);
      throw new BuiltinError(
        special ? 'eval_type_error' : 'eval_builtin_error',
        `strconv.ParseFloat: parsing ${JSON.stringify(s)}: invalid syntax`,
      );
    }
    if (!Number.isFinite(Number(s))) {
      throw builtinErr(`strconv.ParseFloat: parsing ${JSON.stringify(s)}: value out of range`);
    }
    // OPA keeps the string as the number's text (json.Number): exact at any size (E5).
    return numberFromText(s);
  }),
  def('json.marshal', 1, ([v]) => jsonText(v)),
];

import { fromJsonText } from '../values/json-text';
import { jsonText } from '../values/json';
import { RegoObject, RegoSet, Value } from '../values/value';
import { BuiltinDef, BuiltinError } from './types';
import { builtinErr, def, obj, str, typeErr } from './helpers';

const STD = /^[A-Za-z0-9+/]*$/;
const URL = /^[A-Za-z0-9_-]*$/;

/** Go-style strict base64 decoding with its error wording. */
export function b64decode(s: string, url: boolean, padded: boolean): Buffer {
  const alpha = url ? URL : STD;
  const body = s.replace(/=+$/, '');
  for (let i = 0; i < body.length; i++) {
    if (!alpha.test(body[i])) {
      throw builtinErr(`illegal base64 data at input byte ${i}`);
    }
  }
  const pad = s.length - body.length;
  if (padded && (s.length % 4 !== 0 || pad > 2)) {
    throw builtinErr(
      `illegal base64 data at input byte ${Math.max(0, s.length - (s.length % 4 || 4))}`,
    );
  }
  if (!padded && pad > 0) {
    throw builtinErr(`illegal base64 data at input byte ${body.length}`);
  }
  if (body.length % 4 === 1) {
    throw builtinErr(`illegal base64 data at input byte ${body.length - 1}`);
  }
  return Buffer.from(body, url ? 'base64url' : 'base64');
}

function queryEscape(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c)) {
      out += c;
    } else if (c === ' ') {
      out += '+';
    } else {
      out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}

function queryUnescape(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      const h = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(h)) {
        throw builtinErr(`invalid URL escape "${s.slice(i, i + 3)}"`);
      }
      bytes.push(parseInt(h, 16));
      i += 2;
    } else if (c === '+') {
      bytes.push(32);
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export function unmarshal(s: string): Value {
  try {
    // OPA decodes with json.Number: number texts and big integers are kept (E9).
    return fromJsonText(s);
  } catch {
    throw builtinErr('invalid JSON');
  }
}

function indentJson(v: Value, prefix: string, indent: string, depth: number): string {
  const pad = prefix + indent.repeat(depth + 1);
  const end = prefix + indent.repeat(depth);
  if (Array.isArray(v) || v instanceof RegoSet) {
    const xs = Array.isArray(v) ? v : v.values();
    if (xs.length === 0) {
      return '[]';
    }
    return (
      '[\n' +
      xs.map((x) => pad + indentJson(x, prefix, indent, depth + 1)).join(',\n') +
      '\n' +
      end +
      ']'
    );
  }
  if (v instanceof RegoObject) {
    const es = v.entries();
    if (es.length === 0) {
      return '{}';
    }
    return (
      '{\n' +
      es
        .map(
          ([k, x]) =>
            pad +
            jsonText(typeof k === 'string' ? k : jsonText(k)) +
            ': ' +
            indentJson(x, prefix, indent, depth + 1),
        )
        .join(',\n') +
      '\n' +
      end +
      '}'
    );
  }
  return jsonText(v);
}

function marshalWithOptions(v: Value, o: RegoObject): string {
  let pretty: boolean | undefined;
  let indent = '\t';
  let prefix = '';
  for (const [k, x] of o.entries()) {
    if (k === 'pretty' && typeof x === 'boolean') {
      pretty = x;
    } else if (k === 'indent' && typeof x === 'string') {
      indent = x;
      pretty ??= true;
    } else if (k === 'prefix' && typeof x === 'string') {
      prefix = x;
      pretty ??= true;
    } else {
      throw new BuiltinError('eval_type_error', `object contained unknown key ${jsonText(k)}`);
    }
  }
  if (!pretty) {
    return jsonText(v);
  }
  return prefix + indentJson(v, prefix, indent, 0);
}

export function jwtPart(s: string, what: string): Buffer {
  try {
    return b64decode(s, true, false);
  } catch (e) {
    throw builtinErr(`JWT ${what} had invalid encoding: ${(e as Error).message}`);
  }
}

function jwtDecode(token: string): Value {
  if (!token.includes('.')) {
    throw builtinErr('encoded JWT had no period separators');
  }
  const parts = token.split('.');
  if (parts.length !== 3) {
    throw builtinErr(`encoded JWT must have 3 sections, found ${parts.length}`);
  }
  const header = unmarshal(jwtPart(parts[0], 'header').toString('utf8'));
  if (!(header instanceof RegoObject)) {
    throw builtinErr('JWT header is not an object');
  }
  if (header.get('enc') !== undefined) {
    throw builtinErr('JWT is a JWE object, which is not supported');
  }
  const payloadText = jwtPart(parts[1], 'payload').toString('utf8');
  const sig = jwtPart(parts[2], 'signature').toString('hex');
  if (header.get('cty') === 'JWT') {
    const inner = unmarshal(payloadText);
    if (typeof inner !== 'string') {
      throw builtinErr('nested JWT payload is not a string');
    }
    return jwtDecode(inner);
  }
  return [header, unmarshal(payloadText), sig];
}

export const ENCODING_BUILTINS: BuiltinDef[] = [
  def('base64.encode', 1, ([s]) => Buffer.from(str(s, 1), 'utf8').toString('base64')),
  def('base64.decode', 1, ([s]) => b64decode(str(s, 1), false, true).toString('utf8')),
  def('base64.is_valid', 1, ([s]) => {
    try {
      b64decode(str(s, 1), false, true);
      return true;
    } catch {
      return false;
    }
  }),
  def('base64url.encode', 1, ([s]) => {
    const b = Buffer.from(str(s, 1), 'utf8').toString('base64url');
    return b + '='.repeat((4 - (b.length % 4)) % 4);
  }),
  def('base64url.encode_no_pad', 1, ([s]) => Buffer.from(str(s, 1), 'utf8').toString('base64url')),
  def('base64url.decode', 1, ([s]) => {
    const t = str(s, 1);
    return b64decode(t, true, t.endsWith('=')).toString('utf8');
  }),
  def('hex.encode', 1, ([s]) => Buffer.from(str(s, 1), 'utf8').toString('hex')),
  def('hex.decode', 1, ([s]) => {
    const t = str(s, 1);
    const bad = [...t].findIndex((c) => !/[0-9a-fA-F]/.test(c));
    if (bad >= 0) {
      throw builtinErr(
        `encoding/hex: invalid byte: U+${t.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(t[bad]).replace(/"/g, "'")}`,
      );
    }
    if (t.length % 2 !== 0) {
      throw builtinErr('encoding/hex: odd length hex string');
    }
    return Buffer.from(t, 'hex').toString('utf8');
  }),
  def('urlquery.encode', 1, ([s]) => queryEscape(str(s, 1))),
  def('urlquery.decode', 1, ([s]) => queryUnescape(str(s, 1))),
  def('urlquery.encode_object', 1, ([o]) => {
    const parts: string[] = [];
    for (const [k, v] of obj(o, 1).entries()) {
      const key = queryEscape(str(k, 1));
      const vals =
        typeof v === 'string' ? [v] : Array.isArray(v) ? v : v instanceof RegoSet ? v.values() : [];
      if (typeof v !== 'string' && !Array.isArray(v) && !(v instanceof RegoSet)) {
        throw typeErr(1, 'object of strings, arrays or sets of strings', o);
      }
      vals.forEach((x) => parts.push(key + '=' + queryEscape(str(x, 1))));
    }
    return parts.join('&');
  }),
  def('urlquery.decode_object', 1, ([s]) => {
    const out = new RegoObject();
    for (const pair of str(s, 1).split(/[&]/)) {
      if (pair === '') {
        continue;
      }
      const i = pair.indexOf('=');
      const k = queryUnescape(i < 0 ? pair : pair.slice(0, i));
      const v = i < 0 ? '' : queryUnescape(pair.slice(i + 1));
      const cur = out.get(k);
      out.set(k, Array.isArray(cur) ? [...cur, v] : [v]);
    }
    return out;
  }),
  def('json.marshal_with_options', 2, ([v, o]) => marshalWithOptions(v, obj(o, 2))),
  def('json.unmarshal', 1, ([s]) => unmarshal(str(s, 1))),
  def('json.is_valid', 1, ([s]) => {
    if (typeof s !== 'string') {
      return false;
    }
    try {
      JSON.parse(s);
      return true;
    } catch {
      return false;
    }
  }),
  def('io.jwt.decode', 1, ([t]) => jwtDecode(str(t, 1))),
];

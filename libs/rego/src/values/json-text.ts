import { BigNum, numberFromText } from './decimal';
import { fromJson } from './json';
import { RegoObject, Value } from './value';

/** JSON text that is not valid JSON (Go's `encoding/json` refuses it too). */
export class JsonTextError extends SyntaxError {}

// (Three scans are faster in V8 than one alternation.)
const FRACTION_OR_EXPONENT = /\d[.eE]/;
const LONG_INTEGER = /\d{16}/;
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

function needsOwnParser(text: string): boolean {
  return (
    FRACTION_OR_EXPONENT.test(text) ||
    LONG_INTEGER.test(text) ||
    (text.includes('\\u') && SURROGATE_ESCAPE.test(text))
  );
}

/** Parses JSON text into Rego values as OPA decodes it (`encoding/json` with `UseNumber`) (E9). */
export function fromJsonText(text: string): Value {
  if (!needsOwnParser(text)) {
    return fromJson(JSON.parse(text) as unknown);
  }
  return new JsonTextParser(text).document();
}

/**
 * `fromJsonText` as plain JavaScript (objects, arrays), numbers as this engine holds them (`number`,
 * `bigint`, `BigNum` for a text that must be kept); `fromJson` takes it back without loss.
 */
export function parseJsonText(text: string): unknown {
  return plainOf(fromJsonText(text));
}

function plainOf(v: Value): unknown {
  if (v === null || typeof v !== 'object' || v instanceof BigNum) {
    return v;
  }
  if (Array.isArray(v)) {
    return v.map(plainOf);
  }
  if (v instanceof RegoObject) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v.entries()) {
      Object.defineProperty(out, k as string, {
        value: plainOf(x),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return v.values().map(plainOf);
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** The one-character escapes of a JSON string (`\\u` aside), also those of Rego strings. */
export const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// Characters a JSON string holds as they are: not a quote, a backslash or a control character.
// eslint-disable-next-line no-control-regex
const PLAIN = /[^"\\\u0000-\u001f]*/y;
// eslint-disable-next-line no-control-regex
const ESCAPE_OR_CONTROL = /[\\\u0000-\u001f]/;

/** A recursive-descent JSON parser that builds Rego values directly. */
class JsonTextParser {
  private i = 0;

  constructor(private readonly s: string) {}

  document(): Value {
    const v = this.value();
    this.ws();
    if (this.i < this.s.length) {
      this.fail('after top-level value');
    }
    return v;
  }

  private fail(what: string): never {
    throw new JsonTextError(`invalid character at offset ${this.i} ${what}`);
  }

  private ws(): void {
    while (WS.has(this.s.charCodeAt(this.i))) {
      this.i++;
    }
  }

  private value(): Value {
    this.ws();
    const c = this.s[this.i];
    switch (c) {
      case '{':
        return this.object();
      case '[':
        return this.array();
      case '"':
        return this.string();
      case 't':
        return this.word('true', true);
      case 'f':
        return this.word('false', false);
      case 'n':
        return this.word('null', null);
      default:
        return this.number();
    }
  }

  private word(w: string, v: Value): Value {
    if (!this.s.startsWith(w, this.i)) {
      this.fail('looking for beginning of value');
    }
    this.i += w.length;
    return v;
  }

  private number(): Value {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.s);
    if (!m || m[0].length === 0) {
      this.fail('looking for beginning of value');
    }
    this.i += m[0].length;
    const text = m[0];
    // Most numbers are their double's shortest text: that double is the engine's value for them
    // (an integer only while it is safe; past that, numberFromText makes it a bigint).
    const n = Number(text);
    if (String(n) === text && (Number.isSafeInteger(n) || !Number.isInteger(n))) {
      return n;
    }
    return numberFromText(text);
  }

  private object(): Value {
    this.i++;
    // Members go into a prototype-less object (a `__proto__` key is a key like any other; a
    // repeated key keeps its last value), wrapped as lazily as JSON.parse results are.
    const o = Object.create(null) as Record<string, Value>;
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return RegoObject.lazy(o);
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') {
        this.fail('looking for beginning of object key string');
      }
      const k = this.string();
      this.ws();
      if (this.s[this.i] !== ':') {
        this.fail('after object key');
      }
      this.i++;
      o[k] = this.value();
      this.ws();
      const c = this.s[this.i++];
      if (c === '}') {
        return RegoObject.lazy(o);
      }
      if (c !== ',') {
        this.fail('after object key:value pair');
      }
    }
  }

  private array(): Value {
    this.i++;
    const out: Value[] = [];
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.ws();
      const c = this.s[this.i++];
      if (c === ']') {
        return out;
      }
      if (c !== ',') {
        this.fail('after array element');
      }
    }
  }

  private string(): string {
    this.i++;
    // Most strings hold no escape and no control character: take them whole.
    const end = this.s.indexOf('"', this.i);
    if (end >= 0) {
      const whole = this.s.slice(this.i, end);
      if (!ESCAPE_OR_CONTROL.test(whole)) {
        this.i = end + 1;
        return whole;
      }
    }
    let out = '';
    for (;;) {
      PLAIN.lastIndex = this.i;
      const m = PLAIN.exec(this.s) as RegExpExecArray;
      out += m[0];
      this.i += m[0].length;
      const c = this.s[this.i];
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c !== '\\') {
        this.fail('in string literal');
      }
      const e = this.s[this.i + 1];
      if (e === 'u') {
        const unit = this.hex(this.i + 2);
        this.i += 6;
        if (unit >= 0xd800 && unit < 0xdc00 && this.s.startsWith('\\u', this.i)) {
          const low = this.hex(this.i + 2);
          if (low >= 0xdc00 && low < 0xe000) {
            this.i += 6;
            out += String.fromCharCode(unit, low);
            continue;
          }
        }
        // Go replaces a lone surrogate with U+FFFD.
        out += unit >= 0xd800 && unit < 0xe000 ? '\ufffd' : String.fromCharCode(unit);
        continue;
      }
      const x = e === undefined ? undefined : JSON_ESCAPES[e];
      if (x === undefined) {
        this.fail('in string escape code');
      }
      out += x;
      this.i += 2;
    }
  }

  private hex(at: number): number {
    const h = this.s.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) {
      this.fail('in \\u hexadecimal character escape');
    }
    return parseInt(h, 16);
  }
}

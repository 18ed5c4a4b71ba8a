import { BigNum } from '../values/decimal';
import { formatNumber, regoText } from '../values/json';
import { Value } from '../values/value';
import { isInt } from './helpers';

/** Go's `fmt.Sprintf` for the verbs policies use (%s %v %d %f %e %g %x %X %o %b %q %t %c %%). */
export function sprintf(format: string, values: Value[]): string {
  const args = values.map(goArg);
  let out = '';
  let ai = 0;
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    const m = /^([-+# 0]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])/.exec(format.slice(i + 1));
    if (!m) {
      out += '%!(NOVERB)';
      continue;
    }
    i += m[0].length;
    const [, flags, width, prec, verb] = m;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (ai >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const s = formatOne(verb, args[ai++], prec === undefined ? undefined : Number(prec), flags);
    out += pad(s, width ? Number(width) : 0, flags);
  }
  if (ai < args.length) {
    out +=
      '%!(EXTRA ' +
      args
        .slice(ai)
        .map((a) => `${goType(a)}=${plain(a)}`)
        .join(', ') +
      ')';
  }
  return out;
}

// OPA hands a number whose text has a fraction or exponent to Go as float64, or as its text when
// float64 cannot hold it (`2e308`); a BigNum (E5) is such a number.
function goArg(v: Value): GoArg {
  if (v instanceof BigNum) {
    const f = v.toNumber();
    // `1.0` or `1e3` is a float64 in Go even though its value is whole: `%d` refuses it.
    return !Number.isFinite(f) ? v.text : Number.isInteger(f) ? new GoFloat(f) : f;
  }
  // Anything but a number or string reaches Go as its Rego text (a string): `%t` refuses `true`.
  return typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string' ? v : regoText(v);
}

/** A float64 operand whose value is whole (a JS number that is an integer reads as Go's int). */
class GoFloat {
  constructor(readonly value: number) {}
}

type GoArg = Value | GoFloat;

/** A Go float64 operand. */
function isFloat(v: GoArg): v is number {
  return typeof v === 'number' && !Number.isInteger(v);
}

function goType(v: GoArg): string {
  if (v instanceof GoFloat) {
    return 'float64';
  }
  if (typeof v === 'string') {
    return 'string';
  }
  if (typeof v === 'number' && !Number.isInteger(v)) {
    return 'float64';
  }
  if (typeof v === 'number' || typeof v === 'bigint') {
    // Go's int64; beyond it OPA passes a *big.Int.
    const i = BigInt(v);
    return i >= -(2n ** 63n) && i < 2n ** 63n ? 'int' : '*big.Int';
  }
  return 'string';
}

function pad(s: string, width: number, flags: string): string {
  if (s.length >= width) {
    return s;
  }
  if (flags.includes('-')) {
    return s.padEnd(width);
  }
  if (flags.includes('0')) {
    const neg = s.startsWith('-') || s.startsWith('+');
    return neg ? s[0] + s.slice(1).padStart(width - 1, '0') : s.padStart(width, '0');
  }
  return s.padStart(width);
}

/** %v rendering: strings bare, numbers as Go prints them, composites as Rego text. */
export function plain(v: GoArg): string {
  if (v instanceof GoFloat) {
    return goFloat(v.value);
  }
  if (typeof v === 'string') {
    return v;
  }
  if (typeof v === 'number') {
    return goFloat(v);
  }
  return regoText(v);
}

/** Go's %v for float64 (strconv "g", shortest): exponent form when exp < -4 or exp >= 6. */
function goFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) {
    return formatNumber(n);
  }
  if (!Number.isFinite(n)) {
    return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  }
  const [mant, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  return String(n);
}

function formatOne(verb: string, arg: GoArg, prec: number | undefined, flags: string): string {
  if (arg instanceof GoFloat && !'fFeEgGv'.includes(verb)) {
    return `%!${verb}(float64=${plain(arg)})`;
  }
  // The float64 operand, if it is one.
  const f = arg instanceof GoFloat ? arg.value : isFloat(arg) ? arg : undefined;
  const v = arg instanceof GoFloat ? arg.value : arg;
  if (arg instanceof GoFloat && verb === 'v') {
    return plain(arg);
  }
  const isNumber = typeof v === 'number' || typeof v === 'bigint';
  switch (verb) {
    case 's':
      // Go's %s on an int or float64 operand (how OPA passes numbers) reports a bad verb.
      return typeof v === 'number' ? `%!s(${goType(v)}=${plain(v)})` : plain(v);
    case 'v':
      return plain(v);
    case 'd':
      if (isNumber && isInt(v)) {
        const s = v.toString();
        return flags.includes('+') && !s.startsWith('-') ? '+' + s : s;
      }
      return `%!d(${goType(v)}=${plain(v)})`;
    case 'f':
    case 'F':
      return f !== undefined ? f.toFixed(prec ?? 6) : `%!${verb}(${goType(v)}=${plain(v)})`;
    case 'e':
      return f !== undefined
        ? f.toExponential(prec ?? 6).replace(/e([+-])(\d)$/, 'e$10$2')
        : `%!e(${goType(v)}=${plain(v)})`;
    case 'g':
      return f !== undefined
        ? prec === undefined
          ? goFloat(Number(v))
          : String(Number(Number(v).toPrecision(prec)))
        : `%!g(${goType(v)}=${plain(v)})`;
    case 'x':
    case 'X': {
      let s: string;
      if (isNumber && isInt(v)) {
        s = BigInt(v).toString(16);
      } else if (typeof v === 'string') {
        s = Buffer.from(v, 'utf8').toString('hex');
      } else {
        return `%!${verb}(${goType(v)}=${plain(v)})`;
      }
      return verb === 'X' ? s.toUpperCase() : s;
    }
    case 'o':
      return isNumber && isInt(v) ? BigInt(v).toString(8) : `%!o(${goType(v)}=${plain(v)})`;
    case 'b':
      return isNumber && isInt(v) ? BigInt(v).toString(2) : `%!b(${goType(v)}=${plain(v)})`;
    case 'q':
      return typeof v === 'string' ? JSON.stringify(v) : `%!q(${goType(v)}=${plain(v)})`;
    case 't':
      return typeof v === 'boolean' ? String(v) : `%!t(${goType(v)}=${plain(v)})`;
    case 'c':
      return isNumber ? String.fromCodePoint(Number(v)) : `%!c(${goType(v)}=${plain(v)})`;
    default:
      return `%!${verb}(${goType(v)}=${plain(v)})`;
  }
}

import { normalizeBig } from '../values/json';
import { Value } from '../values/value';
import { BuiltinDef } from './types';
import { builtinErr, def, str } from './helpers';

const SI: Record<string, [bigint, bigint]> = {
  '': [1n, 1n],
  m: [1n, 1000n],
  k: [1000n, 1n],
  K: [1000n, 1n],
  ki: [1024n, 1n],
  Ki: [1024n, 1n],
  M: [10n ** 6n, 1n],
  mi: [2n ** 20n, 1n],
  Mi: [2n ** 20n, 1n],
  g: [10n ** 9n, 1n],
  G: [10n ** 9n, 1n],
  gi: [2n ** 30n, 1n],
  Gi: [2n ** 30n, 1n],
  t: [10n ** 12n, 1n],
  T: [10n ** 12n, 1n],
  ti: [2n ** 40n, 1n],
  Ti: [2n ** 40n, 1n],
  p: [10n ** 15n, 1n],
  P: [10n ** 15n, 1n],
  pi: [2n ** 50n, 1n],
  Pi: [2n ** 50n, 1n],
  e: [10n ** 18n, 1n],
  E: [10n ** 18n, 1n],
  ei: [2n ** 60n, 1n],
  Ei: [2n ** 60n, 1n],
};

const BYTES: Record<string, bigint> = { '': 1n };
['k', 'm', 'g', 't', 'p', 'e'].forEach((u, i) => {
  BYTES[u] = BYTES[u + 'b'] = 1000n ** BigInt(i + 1);
  BYTES[u + 'i'] = BYTES[u + 'ib'] = 1024n ** BigInt(i + 1);
});

function split(s: string, fn: string): [string, string] {
  let idx = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    const isNum = (c >= '0' && c <= '9') || c === '.';
    if (!isNum && c !== 'e' && c !== 'E' && c !== '+' && c !== '-') {
      idx = i;
      break;
    }
    if (c === 'e' || c === 'E') {
      const n = s[i + 1];
      if (n === undefined || !((n >= '0' && n <= '9') || n === '+' || n === '-')) {
        idx = i;
        break;
      }
      if (n === '+' || n === '-') {
        i++;
      }
      let j = i + 1;
      while (j < s.length && s[j] >= '0' && s[j] <= '9') {
        j++;
      }
      if (j - (i + 1) > 6) {
        throw builtinErr(`${fn}: exponent too large`);
      }
    }
  }
  if (idx < 0) {
    return [s, ''];
  }
  return [s.slice(0, idx), s.slice(idx)];
}

/** Exact rational from decimal text: [numerator, denominator]. */
function rational(text: string): [bigint, bigint] | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) {
    return undefined;
  }
  const digits = m[2] + (m[3] ?? '');
  let n = BigInt(digits === '' ? '0' : digits);
  let d = 10n ** BigInt((m[3] ?? '').length);
  const exp = Number(m[4] ?? '0');
  if (exp >= 0) {
    n *= 10n ** BigInt(exp);
  } else {
    d *= 10n ** BigInt(-exp);
  }
  return [m[1] === '-' ? -n : n, d];
}

function ratValue(n: bigint, d: bigint): Value {
  if (n % d === 0n) {
    return normalizeBig(n / d);
  }
  return Number(n) / Number(d);
}

export const UNITS_BUILTINS: BuiltinDef[] = [
  def('units.parse', 1, ([v]) => {
    const s = str(v, 1).replaceAll('"', '');
    if (s.includes(' ')) {
      throw builtinErr('units.parse: spaces not allowed in resource strings');
    }
    const [numText, unitRaw] = split(s, 'units.parse');
    if (numText === '') {
      throw builtinErr('units.parse: no amount provided');
    }
    const unit = unitRaw.length > 1 ? unitRaw[0] + unitRaw.slice(1).toLowerCase() : unitRaw;
    const mult = SI[unit];
    if (!mult) {
      throw builtinErr(`units.parse: unit ${unit} not recognized`);
    }
    const r = rational(numText);
    if (!r) {
      throw builtinErr('units.parse: could not parse amount to a number');
    }
    return ratValue(r[0] * mult[0], r[1] * mult[1]);
  }),
  def('units.parse_bytes', 1, ([v]) => {
    const s = str(v, 1).toLowerCase().replaceAll('"', '');
    if (s.includes(' ')) {
      throw builtinErr('units.parse_bytes: spaces not allowed in resource strings');
    }
    const [numText, unit] = split(s, 'units.parse_bytes');
    if (numText === '') {
      throw builtinErr('units.parse_bytes: no byte amount provided');
    }
    const mult = BYTES[unit];
    if (mult === undefined) {
      throw builtinErr(`units.parse_bytes: byte unit ${unit} not recognized`);
    }
    const r = rational(numText);
    if (!r) {
      throw builtinErr('units.parse_bytes: could not parse byte amount to a number');
    }
    return normalizeBig((r[0] * mult) / r[1]);
  }),
];

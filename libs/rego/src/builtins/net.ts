import { RegoObject, RegoSet, Value } from '../values/value';
import { BuiltinDef } from './types';
import { builtinErr, def, elems, str } from './helpers';

interface Addr {
  v6: boolean;
  n: bigint;
}

interface Cidr extends Addr {
  bits: number;
}

function parseV4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) {
    return undefined;
  }
  let n = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255 || (p.length > 1 && p.startsWith('0'))) {
      return undefined;
    }
    n = (n << 8n) | BigInt(p);
  }
  return n;
}

function parseV6(s: string): bigint | undefined {
  let head = s;
  let tailV4: bigint | undefined;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    tailV4 = parseV4(s.slice(lastColon + 1));
    if (tailV4 === undefined) {
      return undefined;
    }
    head = s.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = head.split('::');
  if (dbl.length > 2) {
    return undefined;
  }
  const left = dbl[0] === '' ? [] : dbl[0].split(':');
  const right = dbl.length === 2 ? (dbl[1] === '' ? [] : dbl[1].split(':')) : [];
  const fill = 8 - left.length - right.length;
  if ((dbl.length === 1 && fill !== 0) || fill < 0 || (dbl.length === 2 && fill < 1)) {
    return undefined;
  }
  const groups = [...left, ...Array<string>(dbl.length === 2 ? fill : 0).fill('0'), ...right];
  let n = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) {
      return undefined;
    }
    n = (n << 16n) | BigInt(parseInt(g, 16));
  }
  if (tailV4 !== undefined) {
    n = (n & ~0xffffffffn) | tailV4;
  }
  return n;
}

function parseIp(s: string): Addr | undefined {
  const v4 = parseV4(s);
  if (v4 !== undefined) {
    return { v6: false, n: v4 };
  }
  const v6 = s.includes(':') ? parseV6(s) : undefined;
  return v6 === undefined ? undefined : { v6: true, n: v6 };
}

function parseCidr(s: string): Cidr | undefined {
  const i = s.indexOf('/');
  if (i < 0) {
    return undefined;
  }
  const a = parseIp(s.slice(0, i));
  const bitsText = s.slice(i + 1);
  if (!a || !/^\d+$/.test(bitsText)) {
    return undefined;
  }
  const bits = Number(bitsText);
  const width = a.v6 ? 128 : 32;
  if (bits > width) {
    return undefined;
  }
  return { ...a, n: a.n & mask(width, bits), bits };
}

function mask(width: number, bits: number): bigint {
  const all = (1n << BigInt(width)) - 1n;
  return bits === 0 ? 0n : (all >> BigInt(width - bits)) << BigInt(width - bits);
}

function cidrOrIp(s: string): Cidr | undefined {
  const c = parseCidr(s);
  if (c) {
    return c;
  }
  const a = parseIp(s);
  return a ? { ...a, bits: a.v6 ? 128 : 32 } : undefined;
}

function mustCidr(s: string): Cidr {
  const c = parseCidr(s);
  if (!c) {
    throw builtinErr(`invalid CIDR address: ${s}`);
  }
  return c;
}

function width(c: Addr): number {
  return c.v6 ? 128 : 32;
}

function contains(outer: Cidr, inner: Cidr): boolean {
  if (outer.v6 !== inner.v6 || inner.bits < outer.bits) {
    return false;
  }
  return (inner.n & mask(width(outer), outer.bits)) === outer.n;
}

export function formatIp(a: Addr): string {
  if (!a.v6) {
    return [24n, 16n, 8n, 0n].map((s) => String((a.n >> s) & 255n)).join('.');
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) {
    groups.push(Number((a.n >> BigInt(i * 16)) & 0xffffn));
  }
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) {
      j++;
    }
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) {
    return hex.join(':');
  }
  return hex.slice(0, best).join(':') + '::' + hex.slice(best + bestLen).join(':');
}

function merge(items: Value[]): Value {
  const cidrs: Cidr[] = [];
  for (const it of items) {
    const s = str(it, 1);
    let c = parseCidr(s);
    if (!c) {
      const a = parseIp(s);
      if (a?.v6) {
        throw builtinErr('IPv6 invalid: needs prefix length');
      }
      if (!a) {
        throw builtinErr(`invalid CIDR address: ${s}`);
      }
      const first = Number(a.n >> 24n);
      // Go's net.IP.DefaultMask: classful prefix for a bare IPv4 address.
      const bits = first < 128 ? 8 : first < 192 ? 16 : 24;
      c = { ...a, n: a.n & mask(32, bits), bits };
    }
    cidrs.push(c);
  }
  const out: Cidr[] = [];
  for (const fam of [false, true]) {
    let list = cidrs
      .filter((c) => c.v6 === fam)
      .sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : a.bits - b.bits));
    list = list.filter((c, i) => !list.slice(0, i).some((o) => contains(o, c)));
    let changed = true;
    while (changed) {
      changed = false;
      for (let i = 0; i + 1 < list.length; i++) {
        const a = list[i];
        const b = list[i + 1];
        if (a.bits === b.bits && a.bits > 0) {
          const parent = a.n & mask(width(a), a.bits - 1);
          if (parent === a.n && (b.n & mask(width(a), a.bits - 1)) === parent && a.n !== b.n) {
            list.splice(i, 2, { v6: a.v6, n: parent, bits: a.bits - 1 });
            list = list.filter((c, k) => !list.slice(0, k).some((o) => contains(o, c)));
            changed = true;
            break;
          }
        }
      }
    }
    out.push(...list);
  }
  return RegoSet.from(out.map((c) => `${formatIp(c)}/${c.bits}`));
}

/** `[key, cidr]` pairs of an operand of net.cidr_contains_matches (OPA's getCIDRMatchTerms). */
function matchTerms(v: Value, pos: number): [Value, string][] {
  const term = (x: Value): string => {
    if (typeof x === 'string') {
      return x;
    }
    if (Array.isArray(x) && x.length > 0 && typeof x[0] === 'string') {
      return x[0];
    }
    throw builtinErr(`operand ${pos}: element must be string or non-empty array`);
  };
  if (typeof v === 'string') {
    return [[v, v]];
  }
  if (Array.isArray(v)) {
    return v.map((x, i) => [i, term(x)]);
  }
  if (v instanceof RegoSet) {
    return v.values().map((x) => [x, term(x)]);
  }
  if (v instanceof RegoObject) {
    return [...v.entries()].map(([k, x]) => [k, term(x)]);
  }
  throw builtinErr(`operand ${pos}: must be one of {string, array, set, object}`);
}

export const NET_BUILTINS: BuiltinDef[] = [
  def('net.cidr_contains_matches', 2, ([a, b]) => {
    const cidrs = matchTerms(a, 1);
    const addrs = matchTerms(b, 2);
    const out = new RegoSet();
    for (const [k1, c1] of cidrs) {
      const outer = mustCidr(c1);
      for (const [k2, c2] of addrs) {
        const inner = cidrOrIp(c2);
        if (!inner) {
          throw builtinErr(`invalid CIDR address: ${c2}`);
        }
        if (contains(outer, inner)) {
          out.add([k1, k2]);
        }
      }
    }
    return out;
  }),
  def('net.cidr_contains', 2, ([a, b]) => {
    const outer = mustCidr(str(a, 1));
    const inner = cidrOrIp(str(b, 2));
    if (!inner) {
      throw builtinErr(`invalid CIDR address: ${str(b, 2)}`);
    }
    return contains(outer, inner);
  }),
  def('net.cidr_intersects', 2, ([a, b]) => {
    const x = mustCidr(str(a, 1));
    const y = mustCidr(str(b, 2));
    return contains(x, y) || contains(y, x);
  }),
  def('net.cidr_is_valid', 1, ([a]) => typeof a === 'string' && parseCidr(a) !== undefined),
  def('net.cidr_expand', 1, ([a]) => {
    const c = mustCidr(str(a, 1));
    const count = 1n << BigInt(width(c) - c.bits);
    if (count > 65536n) {
      throw builtinErr('net.cidr_expand: CIDR too large to expand');
    }
    const out = new RegoSet();
    for (let i = 0n; i < count; i++) {
      out.add(formatIp({ v6: c.v6, n: c.n + i }));
    }
    return out;
  }),
  def('net.cidr_merge', 1, ([xs]) => merge(elems(xs, 1))),
];

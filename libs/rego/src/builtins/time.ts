import { normalizeBig } from '../values/json';
import { Value } from '../values/value';
import { BuiltinDef } from './types';
import { builtinErr, def, isNum, num, smallInt, str, toBig, typeErr } from './helpers';
import { Civil, DAYS, formatLayout, parseLayout } from './time-layout';

const NS_PER_MS = 1_000_000n;
const RFC3339 = '2006-01-02T15:04:05Z07:00';
const RFC3339_NANO = '2006-01-02T15:04:05.999999999Z07:00';

/** Zone offset (seconds east of UTC) at an instant, for "UTC", "Local" and IANA names. */
function zoneOffset(tz: string, ms: number): number {
  if (tz === '' || tz === 'UTC' || tz === 'Local') {
    return 0;
  }
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(ms));
  } catch {
    throw builtinErr(`unknown time zone ${tz}`);
  }
  const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((local - (ms - (((ms % 1000) + 1000) % 1000))) / 1000);
}

function civil(ns: bigint, tz: string): Civil {
  const ms = Number(ns / NS_PER_MS) - (ns % NS_PER_MS < 0n ? 1 : 0);
  const offset = zoneOffset(tz, ms);
  const d = new Date(ms + offset * 1000);
  const nanos = Number(((ns % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    nanos,
    offset,
    weekday: d.getUTCDay(),
  };
}

function toNs(c: Civil): bigint {
  const ms = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - c.offset * 1000;
  const d = new Date(0);
  d.setUTCFullYear(c.year, c.month - 1, c.day);
  const fixed = c.year < 100 ? d.setUTCHours(c.hour, c.minute, c.second, 0) - c.offset * 1000 : ms;
  return BigInt(fixed) * NS_PER_MS + BigInt(c.nanos);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** OPA's times are Go `time.Time`s read as int64 nanoseconds: results beyond that are errors. */
function inRange(ns: bigint): Value {
  if (ns < INT64_MIN || ns > INT64_MAX) {
    throw builtinErr('time outside of valid range');
  }
  return normalizeBig(ns);
}

/** A nanosecond operand must fit an int64 (OPA: "timestamp too big"). */
function timestamp(n: number | bigint): bigint {
  const ns = toBig(truncate(n));
  if (ns < INT64_MIN || ns > INT64_MAX) {
    throw builtinErr('timestamp too big');
  }
  return ns;
}

/** `ns` or `[ns, tz]` or `[ns, tz, layout]` operands. */
function nsAndZone(v: Value): [bigint, string, string | undefined] {
  if (Array.isArray(v)) {
    const ns = timestamp(num(v[0], 1));
    const tz = v.length > 1 ? str(v[1], 1) : 'UTC';
    const layout = v.length > 2 ? str(v[2], 1) : undefined;
    return [ns, tz, layout];
  }
  if (!isNum(v)) {
    throw typeErr(1, 'one of {number, array}', v);
  }
  return [timestamp(num(v, 1)), 'UTC', undefined];
}

function truncate(n: number | bigint): number | bigint {
  return typeof n === 'number' ? Math.trunc(n) : n;
}

const NAMED: Record<string, string> = {
  ANSIC: 'Mon Jan _2 15:04:05 2006',
  UnixDate: 'Mon Jan _2 15:04:05 MST 2006',
  RubyDate: 'Mon Jan 02 15:04:05 -0700 2006',
  RFC822: '02 Jan 06 15:04 MST',
  RFC822Z: '02 Jan 06 15:04 -0700',
  RFC850: 'Monday, 02-Jan-06 15:04:05 MST',
  RFC1123: 'Mon, 02 Jan 2006 15:04:05 MST',
  RFC1123Z: 'Mon, 02 Jan 2006 15:04:05 -0700',
  RFC3339,
  RFC3339Nano: RFC3339_NANO,
  Kitchen: '3:04PM',
  Stamp: 'Jan _2 15:04:05',
  DateTime: '2006-01-02 15:04:05',
  DateOnly: '2006-01-02',
  TimeOnly: '15:04:05',
};

function parse(layout: string, value: string): bigint {
  const c = parseLayout(NAMED[layout] ?? layout, value);
  if (typeof c === 'string') {
    throw builtinErr(c);
  }
  return toNs(c);
}

const UNITS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

export function parseDuration(s: string): bigint {
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(s);
  if (!m && s !== '0') {
    throw builtinErr(`time: invalid duration ${JSON.stringify(s)}`);
  }
  let total = 0;
  for (const part of s.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(part[1]) * UNITS[part[2]];
  }
  return BigInt(Math.round(s.startsWith('-') ? -total : total));
}

function diff(a: Civil, b: Civil): number[] {
  const [x, y] = toNs(a) > toNs(b) ? [b, a] : [a, b];
  let year = y.year - x.year;
  let month = y.month - x.month;
  let day = y.day - x.day;
  let hour = y.hour - x.hour;
  let min = y.minute - x.minute;
  let sec = y.second - x.second;
  if (sec < 0) {
    sec += 60;
    min--;
  }
  if (min < 0) {
    min += 60;
    hour--;
  }
  if (hour < 0) {
    hour += 24;
    day--;
  }
  if (day < 0) {
    day += new Date(Date.UTC(x.year, x.month, 0)).getUTCDate();
    month--;
  }
  if (month < 0) {
    month += 12;
    year--;
  }
  return [year, month, day, hour, min, sec];
}

export const TIME_BUILTINS: BuiltinDef[] = [
  def('time.now_ns', 0, (_args, ctx) => normalizeBig(ctx.nowNs())),
  def('time.parse_rfc3339_ns', 1, ([s]) => inRange(parse(RFC3339, str(s, 1)))),
  def('time.parse_ns', 2, ([l, s]) => inRange(parse(str(l, 1), str(s, 2)))),
  def('time.parse_duration_ns', 1, ([s]) => normalizeBig(parseDuration(str(s, 1)))),
  def('time.date', 1, ([v]) => {
    const c = civil(...(nsAndZone(v).slice(0, 2) as [bigint, string]));
    return [c.year, c.month, c.day];
  }),
  def('time.clock', 1, ([v]) => {
    const c = civil(...(nsAndZone(v).slice(0, 2) as [bigint, string]));
    return [c.hour, c.minute, c.second];
  }),
  def(
    'time.weekday',
    1,
    ([v]) => DAYS[civil(...(nsAndZone(v).slice(0, 2) as [bigint, string])).weekday],
  ),
  def('time.format', 1, ([v]) => {
    const [ns, tz, layout] = nsAndZone(v);
    return formatLayout(civil(ns, tz), NAMED[layout ?? ''] ?? layout ?? RFC3339_NANO);
  }),
  def('time.add_date', 4, ([v, y, m, d]) => {
    const c = civil(timestamp(num(v, 1)), 'UTC');
    const date = new Date(
      Date.UTC(
        c.year + smallInt(y, 2),
        c.month - 1 + smallInt(m, 3),
        c.day + smallInt(d, 4),
        c.hour,
        c.minute,
        c.second,
      ),
    );
    if (Number.isNaN(date.getTime())) {
      throw builtinErr('time outside of valid range');
    }
    return inRange(BigInt(date.getTime()) * NS_PER_MS + BigInt(c.nanos));
  }),
  def('time.diff', 2, ([a, b]) => {
    const [x, tx] = nsAndZone(a);
    const [y] = nsAndZone(b);
    // Go's implementation moves the second time into the first one's location.
    return diff(civil(x, tx), civil(y, tx));
  }),
];

/** Go time layouts ("2006-01-02T15:04:05Z07:00") for formatting and parsing. */

export interface Civil {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  /** Offset east of UTC, in seconds. */
  offset: number;
  weekday: number;
}

const TOKENS = [
  'January',
  'Monday',
  '2006',
  '-07:00:00',
  'Z07:00:00',
  '-07:00',
  'Z07:00',
  '-0700',
  'Z0700',
  '-07',
  'Z07',
  'Jan',
  'Mon',
  'MST',
  '.000000000',
  '.999999999',
  '.000000',
  '.999999',
  '.000',
  '.999',
  ',000',
  ',999',
  '002',
  '__2',
  '_2',
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '15',
  'PM',
  'pm',
  '1',
  '2',
  '3',
  '4',
  '5',
];

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function tokenize(layout: string): string[] {
  const out: string[] = [];
  let lit = '';
  for (let i = 0; i < layout.length;) {
    const t = TOKENS.find(
      (x) => layout.startsWith(x, i) && !(x === '1' && layout.startsWith('15', i)),
    );
    if (t) {
      if (lit) {
        out.push('\u0000' + lit);
        lit = '';
      }
      out.push(t);
      i += t.length;
    } else {
      lit += layout[i++];
    }
  }
  if (lit) {
    out.push('\u0000' + lit);
  }
  return out;
}

const p2 = (n: number): string => String(n).padStart(2, '0');

function zone(off: number, tok: string): string {
  if (off === 0 && tok.startsWith('Z')) {
    return 'Z';
  }
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  const h = p2(Math.floor(a / 3600));
  const m = p2(Math.floor((a % 3600) / 60));
  const s = p2(a % 60);
  const body = tok.replace(/^Z/, '-');
  switch (body) {
    case '-07:00:00':
      return `${sign}${h}:${m}:${s}`;
    case '-07:00':
      return `${sign}${h}:${m}`;
    case '-0700':
      return `${sign}${h}${m}`;
    default:
      return `${sign}${h}`;
  }
}

export function formatLayout(c: Civil, layout: string): string {
  return tokenize(layout)
    .map((t) => {
      if (t.startsWith('\u0000')) {
        return t.slice(1);
      }
      const h12 = c.hour % 12 === 0 ? 12 : c.hour % 12;
      switch (t) {
        case '2006':
          return String(c.year).padStart(4, '0');
        case '06':
          return p2(c.year % 100);
        case 'January':
          return MONTHS[c.month - 1];
        case 'Jan':
          return MONTHS[c.month - 1].slice(0, 3);
        case '01':
          return p2(c.month);
        case '1':
          return String(c.month);
        case 'Monday':
          return DAYS[c.weekday];
        case 'Mon':
          return DAYS[c.weekday].slice(0, 3);
        case '02':
          return p2(c.day);
        case '2':
          return String(c.day);
        case '_2':
          return String(c.day).padStart(2, ' ');
        case '15':
          return p2(c.hour);
        case '03':
          return p2(h12);
        case '3':
          return String(h12);
        case '04':
          return p2(c.minute);
        case '4':
          return String(c.minute);
        case '05':
          return p2(c.second);
        case '5':
          return String(c.second);
        case 'PM':
          return c.hour >= 12 ? 'PM' : 'AM';
        case 'pm':
          return c.hour >= 12 ? 'pm' : 'am';
        case 'MST':
          return c.offset === 0 ? 'UTC' : zone(c.offset, '-0700');
        default:
          break;
      }
      if (/^[.,][09]+$/.test(t)) {
        const digits = String(c.nanos)
          .padStart(9, '0')
          .slice(0, t.length - 1);
        if (t[1] === '9') {
          const trimmed = digits.replace(/0+$/, '');
          return trimmed ? t[0] + trimmed : '';
        }
        return t[0] + digits;
      }
      return zone(c.offset, t);
    })
    .join('');
}

/** Parses `value` with a Go layout; returns civil fields or an error text. */
export function parseLayout(layout: string, value: string): Civil | string {
  const c: Civil = {
    year: 1,
    month: 1,
    day: 1,
    hour: 0,
    minute: 0,
    second: 0,
    nanos: 0,
    offset: 0,
    weekday: 0,
  };
  let pm: boolean | undefined;
  let i = 0;
  const num = (min: number, max: number): number | undefined => {
    const m = new RegExp(`^\\d{${min},${max}}`).exec(value.slice(i));
    if (!m) {
      return undefined;
    }
    i += m[0].length;
    return Number(m[0]);
  };
  const bad = `parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(value.slice(i))}`;
  for (const t of tokenize(layout)) {
    if (t.startsWith('\u0000')) {
      const lit = t.slice(1);
      if (!value.startsWith(lit, i)) {
        return bad;
      }
      i += lit.length;
      continue;
    }
    let v: number | undefined;
    switch (t) {
      case '2006':
        v = num(4, 4);
        c.year = v ?? 0;
        break;
      case '06':
        v = num(2, 2);
        c.year = v === undefined ? 0 : v + (v >= 69 ? 1900 : 2000);
        break;
      case '01':
      case '1':
        v = num(t.length === 2 ? 2 : 1, 2);
        c.month = v ?? 0;
        break;
      case 'January':
      case 'Jan': {
        const idx = MONTHS.findIndex((m) => value.startsWith(t === 'Jan' ? m.slice(0, 3) : m, i));
        v = idx < 0 ? undefined : idx + 1;
        i += idx < 0 ? 0 : t === 'Jan' ? 3 : MONTHS[idx].length;
        c.month = v ?? 0;
        break;
      }
      case 'Monday':
      case 'Mon': {
        const idx = DAYS.findIndex((d) => value.startsWith(t === 'Mon' ? d.slice(0, 3) : d, i));
        v = idx < 0 ? undefined : idx;
        i += idx < 0 ? 0 : t === 'Mon' ? 3 : DAYS[idx].length;
        break;
      }
      case '02':
      case '2':
      case '_2':
        if (t === '_2' && value[i] === ' ') {
          i++;
        }
        v = num(t === '02' ? 2 : 1, 2);
        c.day = v ?? 0;
        break;
      case '15':
        v = num(1, 2);
        c.hour = v ?? 0;
        break;
      case '03':
      case '3':
        v = num(t.length, 2);
        c.hour = v ?? 0;
        break;
      case '04':
      case '4':
        v = num(t.length, 2);
        c.minute = v ?? 0;
        break;
      case '05':
      case '5':
        v = num(t.length, 2);
        c.second = v ?? 0;
        if (v !== undefined && value[i] === '.' && /\d/.test(value[i + 1] ?? '')) {
          i++;
          const f = num(1, 9) ?? 0;
          c.nanos = Number(String(f).padEnd(9, '0'));
        }
        break;
      case 'PM':
      case 'pm': {
        const s = value.slice(i, i + 2).toUpperCase();
        v = s === 'PM' || s === 'AM' ? 1 : undefined;
        pm = s === 'PM';
        i += 2;
        break;
      }
      case 'MST': {
        const m = /^[A-Z]{3,4}/.exec(value.slice(i));
        v = m ? 1 : undefined;
        i += m ? m[0].length : 0;
        break;
      }
      default:
        if (/^[.,][09]+$/.test(t)) {
          if (value[i] === t[0]) {
            i++;
            const start = i;
            v = num(1, 9);
            c.nanos = v === undefined ? 0 : Number(value.slice(start, i).padEnd(9, '0'));
          } else {
            v = t[1] === '9' ? 0 : undefined;
          }
          break;
        }
        if (t.startsWith('Z') && value[i] === 'Z') {
          i++;
          v = 0;
          break;
        }
        {
          const m = /^([+-])(\d{2}):?(\d{2})?(?::?(\d{2}))?/.exec(value.slice(i));
          v = m ? 1 : undefined;
          if (m) {
            i += m[0].length;
            c.offset =
              (m[1] === '-' ? -1 : 1) *
              (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0));
          }
        }
    }
    if (v === undefined) {
      return bad;
    }
  }
  if (i !== value.length) {
    return `parsing time ${JSON.stringify(value)}: extra text: ${JSON.stringify(value.slice(i))}`;
  }
  if (pm !== undefined) {
    c.hour = (c.hour % 12) + (pm ? 12 : 0);
  }
  if (
    c.month < 1 ||
    c.month > 12 ||
    c.day < 1 ||
    c.day > 31 ||
    c.hour > 23 ||
    c.minute > 59 ||
    c.second > 59
  ) {
    return `parsing time ${JSON.stringify(value)}: value out of range`;
  }
  return c;
}

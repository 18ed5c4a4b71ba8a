import { isIPv4, isIPv6 } from 'node:net';

import { CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';

import { Rule, before } from '../finding';
import { NUMBER_STARTS, PHONE_STARTS, Scan } from '../scan';

// GR2: every quantifier is bounded and every rule starts behind a one-character look-behind, so a
// match attempt costs a bounded number of steps at each position and a scan is linear.

const isLocalChar = (c: number): boolean =>
  (c >= 48 && c <= 57) ||
  (c >= 65 && c <= 90) ||
  (c >= 97 && c <= 122) ||
  c === 46 ||
  c === 37 ||
  c === 43 ||
  c === 45;
const isAlnum = (c: number): boolean => isLocalChar(c) && c > 45 && c !== 46;

/** GR27: an address starts where the run of local-part characters before its `@` starts. */
function emailStarts(scan: Scan): number[] | null {
  const text = scan.text;
  const out: number[] = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let s = at;
    while (s > 0 && at - s <= 64 && isLocalChar(text.charCodeAt(s - 1))) {
      s -= 1;
    }
    const runLonger = s > 0 && isLocalChar(text.charCodeAt(s - 1));
    if (s < at && !runLonger && isAlnum(text.charCodeAt(s)) && text.charAt(s - 1) !== '_') {
      if (out.length === scan.denseStarts) {
        return null;
      }
      out.push(s);
    }
  }
  return out;
}

const EMAIL: Rule = {
  type: 'EMAIL',
  regex:
    /(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,8}[A-Za-z]{2,24}(?![\w-]|\.[A-Za-z0-9])/g,
  score: 0.95,
  starts: (scan) => scan.positions(emailStarts, emailStarts),
};

const PHONE_CONTEXT =
  /\b(?:phone|tel|telephone|mobile|cell|call|fax|whatsapp|sms|text me|contact|reach|ph|phone_number|phoneNumber)\b/;
const NOT_PHONE_CONTEXT =
  /\b(?:order|invoice|ticket|ref|reference|id|account|acct|version|build|serial|tracking|sku|po|case)\b[\s#:no.]{0,6}$/;
const NATIONAL_COUNTRIES: CountryCode[] = [
  'US',
  'GB',
  'DE',
  'FR',
  'IN',
  'BR',
  'JP',
  'CN',
  'ES',
  'IT',
];
const US_FORMAT = /^\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}$/;

/** GR3: national forms need US layout or a context word; bare digit groups are mostly not phones. */
function phoneScore(value: string, text: string, start: number): number {
  let digits = 0;
  for (let i = 0; i < value.length; i += 1) {
    digits += value.charCodeAt(i) >= 48 && value.charCodeAt(i) <= 57 ? 1 : 0;
  }
  if (digits < 7 || digits > 15) {
    return 0;
  }
  const left = before(text, start, 40);
  const hasContext = PHONE_CONTEXT.test(left);
  if (!hasContext && NOT_PHONE_CONTEXT.test(left)) {
    return 0;
  }
  if (value.startsWith('+') || value.startsWith('00')) {
    const parsed = parsePhoneNumberFromString(
      value.startsWith('00') ? `+${value.slice(2)}` : value,
    );
    if (!parsed) {
      return 0;
    }
    if (parsed.isValid()) {
      return 0.95;
    }
    return parsed.isPossible() && /[ ().-]/.test(value) ? 0.75 : 0;
  }
  if (!hasContext && !US_FORMAT.test(value)) {
    return 0;
  }
  const countries = hasContext ? NATIONAL_COUNTRIES : (['US'] as CountryCode[]);
  for (const country of countries) {
    const parsed = parsePhoneNumberFromString(value, country);
    if (parsed?.isValid()) {
      return hasContext ? 0.9 : 0.8;
    }
  }
  return hasContext && US_FORMAT.test(value) ? 0.7 : 0;
}

const PHONE: Rule = {
  type: 'PHONE',
  regex: /(?<![\w+.\-/])(?:\+|00)?\(?\d[\d ().\-\u00a0]{5,20}\d(?![\w]|[.\-/]\d)/g,
  score: 0,
  starts: PHONE_STARTS,
  validate: (value, text, start) => phoneScore(value, text, start),
};

const NOT_IP_CONTEXT =
  /\b(?:version|ver|v|release|oid|build|chapter|section|figure|table|§)[\s:]{0,3}$/;

const IPV4: Rule = {
  type: 'IP_ADDRESS',
  regex:
    /(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w]|\.\d)/g,
  score: 0.9,
  minDigits: 4,
  starts: NUMBER_STARTS,
  validate: (value, text, start) =>
    isIPv4(value) && !NOT_IP_CONTEXT.test(before(text, start, 12)) ? 0.9 : 0,
};

const isHex = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const WORD_DOT_COLON = /[\w:.]/;

function ipv6Starts(scan: Scan): number[] | null {
  const text = scan.text;
  const out: number[] = [];
  for (let colon = text.indexOf(':'); colon >= 0; colon = text.indexOf(':', colon + 1)) {
    let s = colon;
    while (s > 0 && colon - s < 5 && isHex(text.charCodeAt(s - 1))) {
      s -= 1;
    }
    if (colon - s <= 4 && !WORD_DOT_COLON.test(text.charAt(s - 1)) && out[out.length - 1] !== s) {
      if (out.length === scan.denseStarts) {
        return null;
      }
      out.push(s);
    }
  }
  return out;
}

const IPV6: Rule = {
  type: 'IP_ADDRESS',
  regex:
    /(?<![\w:.])(?=[0-9A-Fa-f]{0,4}:[0-9A-Fa-f]{0,4}:)[0-9A-Fa-f:]{2,39}(?:\d{1,3}(?:\.\d{1,3}){3})?(?![\w:])/g,
  score: 0.9,
  starts: (scan) => scan.positions(ipv6Starts, ipv6Starts),
  validate: (value) => {
    const colons = value.split(':').length - 1;
    const enough = colons >= 3 || (value.includes('::') && value.length >= 6);
    return enough && /[0-9]/.test(value) && isIPv6(value) ? 0.9 : 0;
  },
};

export const CONTACT_RULES: Rule[] = [EMAIL, PHONE, IPV4, IPV6];

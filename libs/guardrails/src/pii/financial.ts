import { CAPITALS_DIGIT_STARTS, NUMBER_STARTS } from '../scan';
import { Rule, after, before } from '../finding';
import { luhnValid, mod97 } from '../checksums';

const CARD_CONTEXT =
  /\b(?:card|cc|credit|debit|visa|mastercard|amex|american express|discover|jcb|diners|maestro|unionpay|pan|payment|cardnumber|card_number|cardNumber)\b/;
const NOT_CARD_CONTEXT =
  /\b(?:order|invoice|ticket|tracking|ref|reference|shipment|parcel|account|acct|iban|isbn|imei|serial|transaction|txn|id|number of|no)\b[\s#:.no-]{0,6}$/;

/** Issuer identification ranges of the networks that issue most cards, with their lengths. */
function issuerKnown(d: string): boolean {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p3 = Number(d.slice(0, 3));
  const p4 = Number(d.slice(0, 4));
  const p6 = Number(d.slice(0, 6));
  if (d[0] === '4') {
    return n === 13 || n === 16 || n === 19;
  }
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) {
    return n === 16;
  }
  if (p2 === 34 || p2 === 37) {
    return n === 15;
  }
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) {
    return n >= 16 && n <= 19;
  }
  if (p4 >= 3528 && p4 <= 3589) {
    return n >= 16 && n <= 19;
  }
  if (p2 === 36 || p2 === 38 || (p3 >= 300 && p3 <= 305)) {
    return n >= 14 && n <= 19;
  }
  if (p2 === 62) {
    return n >= 16 && n <= 19;
  }
  if (p2 === 50 || (p2 >= 56 && p2 <= 69)) {
    return n >= 12 && n <= 19;
  }
  return false;
}

function cardScore(value: string, text: string, start: number): number {
  const separators = new Set(value.replace(/\d/g, ''));
  if (separators.size > 1) {
    return 0;
  }
  const digits = value.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19 || !luhnValid(digits) || !issuerKnown(digits)) {
    return 0;
  }
  if (/^(\d)\1+$/.test(digits)) {
    return 0;
  }
  const left = before(text, start, 40);
  const hasContext = CARD_CONTEXT.test(left);
  if (!hasContext && NOT_CARD_CONTEXT.test(left)) {
    return 0;
  }
  return hasContext ? 0.98 : 0.9;
}

const PAYMENT_CARD: Rule = {
  type: 'PAYMENT_CARD',
  regex: /(?<![\w.\-/]|\d[ .\-/])(?:\d[ -]?){12,18}\d(?![\w]|[ .\-/]\d)/g,
  score: 0,
  minDigits: 13,
  starts: NUMBER_STARTS,
  validate: (value, text, start) => cardScore(value, text, start),
};

/** IBAN lengths by country (ISO 13616 registry, the countries that use it most). */
const IBAN_LENGTH: Record<string, number> = {
  AD: 24,
  AE: 23,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TN: 24,
  TR: 26,
  UA: 29,
  VG: 24,
  XK: 20,
};

function ibanScore(value: string): number {
  const iban = value.replace(/ /g, '');
  if (IBAN_LENGTH[iban.slice(0, 2)] !== iban.length) {
    return 0;
  }
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1 ? 0.98 : 0;
}

const IBAN: Rule = {
  type: 'IBAN',
  regex: /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![A-Za-z0-9])/g,
  score: 0,
  starts: CAPITALS_DIGIT_STARTS,
  validate: (value) => ibanScore(value),
};

const SSN_CONTEXT = /\b(?:ssn|social security|soc sec|ss#|ss no|taxpayer|tin)\b/;

/** GR4: the SSA never issues area 000, 666 or 900–999, group 00 or serial 0000. */
function ssnScore(value: string, text: string, start: number, end: number): number {
  const digits = value.replace(/\D/g, '');
  const area = Number(digits.slice(0, 3));
  if (area === 0 || area === 666 || area >= 900) {
    return 0;
  }
  if (digits.slice(3, 5) === '00' || digits.slice(5) === '0000') {
    return 0;
  }
  if (digits === '123456789' || digits === '078051120' || digits === '219099999') {
    return 0;
  }
  const hasContext = SSN_CONTEXT.test(before(text, start, 40));
  if (value.includes('-')) {
    return hasContext ? 0.98 : 0.85;
  }
  if (!hasContext || /^[\d-]/.test(after(text, end, 1))) {
    return 0;
  }
  return 0.8;
}

const US_SSN: Rule = {
  type: 'US_SSN',
  regex: /(?<![\w.\-/]|\d[ .\-/])\d{3}([- ]?)\d{2}\1\d{4}(?![\w]|[ .\-/]\d)/g,
  score: 0,
  minDigits: 9,
  starts: NUMBER_STARTS,
  validate: ssnScore,
};

export const FINANCIAL_RULES: Rule[] = [PAYMENT_CARD, IBAN, US_SSN];

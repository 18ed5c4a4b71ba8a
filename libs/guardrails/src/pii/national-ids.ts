import { CAPITALS_DIGIT_STARTS, NUMBER_STARTS, unionStarts } from '../scan';
import { Rule, before } from '../finding';
import { luhnValid, verhoeffValid } from '../checksums';

// NATIONAL_ID (D50) for the largest markets, each with its check digit where it has one (GR4).

function contextScore(
  text: string,
  start: number,
  words: RegExp,
  withWord: number,
  without: number,
): number {
  return words.test(before(text, start, 40)) ? withWord : without;
}

/** UK National Insurance number (HMRC's excluded prefixes left out). */
const UK_NINO: Rule = {
  type: 'NATIONAL_ID',
  regex:
    /(?<![A-Za-z0-9])(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])/g,
  score: 0.85,
  starts: CAPITALS_DIGIT_STARTS,
};

/** India: Aadhaar (Verhoeff check) in its 4-4-4 layout or after the word. */
const AADHAAR: Rule = {
  type: 'NATIONAL_ID',
  regex: /(?<![\w.\-/]|\d[ .\-/])[2-9]\d{3}([ -]?)\d{4}\1\d{4}(?![\w]|[ .\-/]\d)/g,
  score: 0,
  minDigits: 12,
  starts: NUMBER_STARTS,
  validate: (value, text, start) => {
    const digits = value.replace(/\D/g, '');
    if (!verhoeffValid(digits)) {
      return 0;
    }
    return contextScore(
      text,
      start,
      /\b(?:aadhaar|aadhar|uidai|uid)\b/,
      0.95,
      value.length === 14 ? 0.75 : 0,
    );
  },
};

/** India: Permanent Account Number (the fourth letter is the holder's kind). */
const INDIA_PAN: Rule = {
  type: 'NATIONAL_ID',
  regex: /(?<![A-Za-z0-9])[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z](?![A-Za-z0-9])/g,
  score: 0,
  starts: CAPITALS_DIGIT_STARTS,
  validate: (_v, text, start) =>
    contextScore(text, start, /\b(?:pan|income tax|permanent account)\b/, 0.95, 0.7),
};

const CN_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CN_CHECK = '10X98765432';

/** China: resident identity card number (ISO 7064 MOD 11-2). */
const CHINA_RIC: Rule = {
  type: 'NATIONAL_ID',
  regex:
    /(?<![\w.\-/]|\d[ .\-/])[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\w])/g,
  score: 0,
  minDigits: 17,
  starts: NUMBER_STARTS,
  validate: (value) => {
    let sum = 0;
    for (let i = 0; i < 17; i += 1) {
      sum += (value.charCodeAt(i) - 48) * CN_WEIGHTS[i];
    }
    return CN_CHECK[sum % 11] === value[17].toUpperCase() ? 0.95 : 0;
  },
};

function cpfValid(digits: string): boolean {
  if (/^(\d)\1{10}$/.test(digits)) {
    return false;
  }
  for (const n of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) {
      sum += (digits.charCodeAt(i) - 48) * (n + 1 - i);
    }
    const check = ((sum * 10) % 11) % 10;
    if (check !== digits.charCodeAt(n) - 48) {
      return false;
    }
  }
  return true;
}

/** Brazil: CPF in its 000.000.000-00 layout, or bare after the word. */
const BRAZIL_CPF: Rule = {
  type: 'NATIONAL_ID',
  regex: /(?<![\w.\-/]|\d[ .\-/])\d{3}(\.?)\d{3}\1\d{3}-?\d{2}(?![\w]|[ .\-/]\d)/g,
  score: 0,
  minDigits: 11,
  starts: NUMBER_STARTS,
  validate: (value, text, start) => {
    if (!cpfValid(value.replace(/\D/g, ''))) {
      return 0;
    }
    return contextScore(text, start, /\b(?:cpf)\b/, 0.95, value.length === 14 ? 0.85 : 0);
  },
};

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spain: DNI and NIE with their check letter. */
const SPAIN_DNI: Rule = {
  type: 'NATIONAL_ID',
  regex: /(?<![A-Za-z0-9])[XYZ0-9]\d{7}-?[A-HJ-NP-TV-Z](?![A-Za-z0-9])/g,
  score: 0,
  minDigits: 7,
  starts: unionStarts(NUMBER_STARTS, CAPITALS_DIGIT_STARTS),
  validate: (value) => {
    const v = value.replace('-', '');
    const number = Number(
      'XYZ'.includes(v[0]) ? `${'XYZ'.indexOf(v[0])}${v.slice(1, 8)}` : v.slice(0, 8),
    );
    return DNI_LETTERS[number % 23] === v[8] ? 0.9 : 0;
  },
};

/** France: NIR (social security number) with its key 97 − (number mod 97). */
const FRANCE_NIR: Rule = {
  type: 'NATIONAL_ID',
  regex:
    /(?<![\w.\-/]|\d[ .\-/])[12] ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?![\w]|[ .\-/]\d)/g,
  score: 0,
  minDigits: 14,
  starts: NUMBER_STARTS,
  validate: (value) => {
    const v = value.replace(/ /g, '').replace('2A', '19').replace('2B', '18');
    const key = 97 - Number(BigInt(v.slice(0, 13)) % 97n);
    return key === Number(v.slice(13)) ? 0.9 : 0;
  },
};

/** Canada: Social Insurance Number (Luhn), only after the words that name it. */
const CANADA_SIN: Rule = {
  type: 'NATIONAL_ID',
  regex: /(?<![\w.\-/]|\d[ .\-/])\d{3}([ -]?)\d{3}\1\d{3}(?![\w]|[ .\-/]\d)/g,
  score: 0,
  minDigits: 9,
  starts: NUMBER_STARTS,
  validate: (value, text, start) =>
    luhnValid(value.replace(/\D/g, '')) &&
    /\b(?:sin|social insurance|nas)\b/.test(before(text, start, 40))
      ? 0.9
      : 0,
};

const KR_WEIGHTS = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];

/** South Korea: resident registration number with its check digit. */
const KOREA_RRN: Rule = {
  type: 'NATIONAL_ID',
  regex:
    /(?<![\w.\-/]|\d[ .\-/])\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-[1-4]\d{6}(?![\w]|[ .\-/]\d)/g,
  score: 0,
  minDigits: 13,
  starts: NUMBER_STARTS,
  validate: (value) => {
    const d = value.replace('-', '');
    let sum = 0;
    for (let i = 0; i < 12; i += 1) {
      sum += (d.charCodeAt(i) - 48) * KR_WEIGHTS[i];
    }
    return (11 - (sum % 11)) % 10 === d.charCodeAt(12) - 48 ? 0.9 : 0;
  },
};

export const NATIONAL_ID_RULES: Rule[] = [
  UK_NINO,
  AADHAAR,
  INDIA_PAN,
  CHINA_RIC,
  BRAZIL_CPF,
  SPAIN_DNI,
  FRANCE_NIR,
  CANADA_SIN,
  KOREA_RRN,
];

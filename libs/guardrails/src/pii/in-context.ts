import { Rule, before } from '../finding';
import { LiteralTrigger } from '../literal-trigger';
import { CAPITALS_DIGIT_STARTS, NUMBER_STARTS, Scan, unionStarts } from '../scan';

// Dates of birth, names and addresses are found only where context words make them likely (GR5);
// the finding's span is the value (capture group 1, at the match's end), never the context word.

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE = `(\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}|\\d{1,2}[-/.]\\d{1,2}[-/.](?:\\d{4}|\\d{2})|\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH},? \\d{4}|${MONTH} \\d{1,2}(?:st|nd|rd|th)?,? \\d{4})(?![\\w]|[-/.]\\d)`;
const DOB_WORDS =
  '(?:dob|d\\.o\\.b\\.?|date[ _]?of[ _]?birth|dateofbirth|birth[ _]?date|birthdate|birthday|born(?: on)?|geboren(?: am)?|née? le|fecha de nacimiento|data de nascimento)';

/** GR25: the words dates of birth, names and southern streets start with, in any case. */
const WORD_STARTS = new LiteralTrigger([
  'dob d.o date birth born geboren né fecha data'.split(' '),
  'my name full patient customer employee contact cardholder beneficiary account sign sincerely regards dear mr ms miss mx dr prof'.split(
    ' ',
  ),
  ['calle ', 'avenida ', 'via ', 'viale ', 'piazza ', 'rua '],
]);

const DATE_OF_BIRTH: Rule = {
  type: 'DATE_OF_BIRTH',
  regex: new RegExp(`(?<![\\w])${DOB_WORDS}(?![\\w])[^\\n\\d]{0,24}?${DATE}`, 'gi'),
  group: 1,
  score: 0.9,
  starts: WORD_STARTS.startsOf(0),
};

const CAP = "[A-Z][a-z]{1,20}(?![a-z])(?:[-'][A-Z]?[a-z]{1,20}(?![a-z]))?";
const NAME = `(${CAP}(?: (?:[A-Z]\\. )?${CAP}){0,2})`;
const NOT_NAMES = new Set(
  'The This That These Those It Is Are Was Were Be Please Thanks Thank Hi Hello Dear Team All Sir Madam Customer Support Service User Admin Unknown None Null True False Yes No And Or But Not New Old Our Your My His Her Their We You They Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April June July August September October November December Street Avenue Road Inc Ltd Corp Company String Number Boolean Object Array Date Promise Request Response Error Map Set In Out Headers Record'.split(
    ' ',
  ),
);

function nameScore(value: string): number {
  const words = value.split(' ');
  if (words.some((w) => NOT_NAMES.has(w))) {
    return 0;
  }
  return words.length >= 2 ? 0.85 : 0.6;
}

const PERSON_CUE =
  '(?:(?<![\\w])(?:[Mm]y name is|[Nn]ame is|[Nn]ame:|[Ff]ull name:|[Pp]atient:|[Pp]atient|[Cc]ustomer:|[Ee]mployee:|[Cc]ontact:|[Cc]ardholder:|[Bb]eneficiary:|[Aa]ccount holder:|[Ss]igned,?|[Ss]incerely,|[Rr]egards,|[Dd]ear|(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof)\\.?)|"(?:full_?[Nn]ame|first_?[Nn]ame|last_?[Nn]ame|name|customer_?[Nn]ame|patient_?[Nn]ame|holder_?[Nn]ame|displayName|contact_?[Nn]ame)"\\s{0,3}:\\s{0,3}")';

const NAME_KEY_END = /[Nn]ame"/g;

/** A JSON name key (`"full_name"`) starts at the quote before its `name"`. */
function jsonNameStarts(scan: Scan): number[] | null {
  const out: number[] = [];
  const text = scan.text;
  NAME_KEY_END.lastIndex = 0;
  for (let m = NAME_KEY_END.exec(text); m; m = NAME_KEY_END.exec(text)) {
    const p = m.index;
    const quote = text.lastIndexOf('"', p - 1);
    if (quote >= 0 && out[out.length - 1] !== quote) {
      if (out.length === scan.denseStarts) {
        return null;
      }
      out.push(quote);
    }
  }
  return out;
}

const PERSON: Rule = {
  type: 'PERSON',
  regex: new RegExp(
    `${PERSON_CUE}(?:(?<=")|[ \\t]{1,3}\\n?[ \\t]{0,3}|\\n[ \\t]{0,3})${NAME}(?![\\w(])`,
    'g',
  ),
  group: 1,
  score: 0,
  starts: unionStarts(WORD_STARTS.startsOf(1), jsonNameStarts),
  validate: (value, text, start) => {
    const score = nameScore(value);
    if (score === 0) {
      return 0;
    }
    const cue = text.slice(Math.max(0, start - 6), start);
    return /(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof)\.? ?$/.test(cue) ? Math.max(score, 0.8) : score;
  },
};

const STREET_SUFFIX =
  '(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Parkway|Pkwy|Highway|Hwy|Square|Sq|Circle|Cir|Close|Crescent|Row)';
const US_TAIL =
  '(?:,? (?:Apt|Apartment|Suite|Ste|Unit|Floor|Fl|#) ?[A-Za-z0-9-]{1,6})?(?:, [A-Z][a-z]{1,20}(?: [A-Z][a-z]{1,20}){0,2})?(?:,? [A-Z]{2} \\d{5}(?:-\\d{4})?)?';

const STREET_ADDRESS: Rule = {
  type: 'ADDRESS',
  regex: new RegExp(
    `(?<![\\w.,-])\\d{1,5}[A-Za-z]? (?:[A-Z][a-z]{1,20} |[NSEW]\\.? |\\d{1,3}(?:st|nd|rd|th) ){1,3}${STREET_SUFFIX}\\.?(?![\\w])${US_TAIL}`,
    'g',
  ),
  score: 0.85,
  starts: NUMBER_STARTS,
};

const LOWER_DE = /[a-zäöüß]/;
const UPPER_DE = /[A-ZÄÖÜ]/;

const STREET_WORD_BEFORE = /(?:straße|strasse|str\.|weg|platz|allee|gasse|ring|damm) $/;

/** A German street: from its number's start back over the street word to its capital. */
function germanStreetStarts(scan: Scan): number[] | null {
  const numbers = NUMBER_STARTS(scan);
  if (numbers === null) {
    return null;
  }
  const text = scan.text;
  const out: number[] = [];
  for (const at of numbers) {
    const streetWord =
      text.charCodeAt(at - 1) === 32 &&
      STREET_WORD_BEFORE.exec(text.slice(Math.max(0, at - 9), at));
    if (!streetWord) {
      continue;
    }
    const wordEnd = at - streetWord[0].length;
    let s = wordEnd;
    while (s > 0 && wordEnd - s < 24 && LOWER_DE.test(text.charAt(s - 1))) {
      s -= 1;
    }
    if (
      s > 0 &&
      s < wordEnd &&
      UPPER_DE.test(text.charAt(s - 1)) &&
      out[out.length - 1] !== s - 1
    ) {
      out.push(s - 1);
    }
  }
  return out;
}

const EU_ADDRESS_STARTS = unionStarts(NUMBER_STARTS, WORD_STARTS.startsOf(2), (scan) =>
  scan.positions(germanStreetStarts, germanStreetStarts),
);

const EU_ADDRESS: Rule = {
  type: 'ADDRESS',
  regex:
    /(?<![\w])(?:[A-ZÄÖÜ][a-zäöüß]{1,24}(?:straße|strasse|str\.|weg|platz|allee|gasse|ring|damm) \d{1,4}[a-z]?|\d{1,4},? (?:rue|avenue|boulevard|place|chemin|allée|impasse) (?:d[eu]s? |de la |de l'|l')?[A-Za-zÀ-ÿ'-]{2,24}(?: [A-Za-zÀ-ÿ'-]{2,24}){0,3}|(?:Calle|Avenida|Via|Viale|Piazza|Rua) (?:de |del |della |da |do )?[A-ZÀ-Ý][a-zà-ÿ]{1,24}(?: [A-ZÀ-Ý][a-zà-ÿ]{1,24}){0,2},? \d{1,4})(?:,? \d{4,5} [A-ZÀ-Ý][a-zà-ÿ]{1,24})?(?![\w])/g,
  score: 0.85,
  starts: EU_ADDRESS_STARTS,
};

const POSTCODE_CONTEXT =
  /\b(?:address|addr|lives at|ship to|deliver to|postcode|post code|located at)\b/;

const UK_POSTCODE: Rule = {
  type: 'ADDRESS',
  regex: /(?<![A-Za-z0-9])[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}(?![A-Za-z0-9])/g,
  score: 0,
  starts: CAPITALS_DIGIT_STARTS,
  validate: (_v, text, start) => (POSTCODE_CONTEXT.test(before(text, start, 80)) ? 0.85 : 0),
};

export const IN_CONTEXT_RULES: Rule[] = [
  DATE_OF_BIRTH,
  PERSON,
  STREET_ADDRESS,
  EU_ADDRESS,
  UK_POSTCODE,
];

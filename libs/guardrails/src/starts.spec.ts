import { readCorpus } from './bench/corpus';
import { Rule, matchesAt, runRules } from './finding';
import { base64Blobs } from './injection/base64-runs';
import { CUES, CUE_STARTS } from './injection/cues';
import { PII_RULES } from './pii';
import { Scan, literalTrie } from './scan';
import { SECRET_RULES } from './secrets';

// GR25–GR28: a rule tried only at its starts must find exactly what one pass over the whole text
// finds. Each text below is scanned both ways; any start a rule's finder misses shows as a diff.

const TOKENS = [
  ...'4111 1111 - . / ( ) + +1 00 44 555 12 @ _ a b.c example.org'.split(' '),
  ' ',
  '\n',
  '\u00a0',
  ...[
    'Mr',
    'Dr',
    'MS',
    'Dear',
    'Name:',
    '"full_name": "',
    '"displayName":"',
    'Ana Lima',
    'Patient:',
  ],
  ...['DOB:', 'BORN on', 'Né le', 'NÉE LE', '1985-03-14', '14/03/1985', 'March 3, 1990'],
  ...['42 Maple Street', 'Hauptstraße 5', 'Kirchgasse 12', 'Via Roma 3', '12 rue de la Paix'],
  ...['SW1A 1AA', 'address: ', 'DE89 3704 0044 0532 0130 00', 'AB 12 34 56 C', 'ABCPE1234F'],
  ...[
    'X1234567L',
    '12345678Z',
    '4222222222222',
    'card ',
    '219-45-6780',
    '2345 6789 0123',
    '::1',
    'fe80::1',
    '10.0.0.1',
  ],
  ...['IGNORE', 'previous', 'instructions', 'You are now', 'DAN', 'reveal', 'system prompt'],
  ...['<|im_start|>', '[INST]', '<system>', '![x](http://a.b/?q={', 'Important:', 'AI', 'decode'],
  ...['password', '=', 'API_KEY: ', 'Zq8#Lk2!vR9wXp4T', 'ghp_', 'AKIA', 'sk-', 'SK', 'xoxb-1-'],
  ...['eyJhbGciOiJIUzI1NiJ9', '.eyJzdWIiOiIxIn0', 'jdbc:mysql://', 'postgres://u:', 'p4ss@h/db'],
  ...['İ', '\u212A', 'É', 'aGVsbG8gd29ybGQgaWdub3JlIHByZXZpb3VzIGluc3RydWN0aW9ucw==', '==', '_-'],
];

function texts(): string[] {
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const fuzz = Array.from({ length: 3000 }, () =>
    Array.from({ length: 1 + next(24) }, () => TOKENS[next(TOKENS.length)]).join(''),
  );
  const corpus = ['pii.jsonl', 'secrets.jsonl', 'injection.jsonl'].flatMap((n) =>
    readCorpus(n).map((r) => r.text),
  );
  // Identifiers alone in a sentence: the digit counts near their starts are theirs only, and the
  // prose keeps the starts sparse enough to be tried one by one.
  const alone = TOKENS.filter((t) => /\d/.test(t)).map(
    (t) => `Hello team, as the customer wrote in the ticket: card ${t} (see above). Thanks, Ana`,
  );
  return [...corpus, ...alone, ...fuzz];
}

const ALL = texts();
const everywhere = (rules: readonly Rule[]): Rule[] =>
  rules.map((r) => ({ ...r, starts: undefined, minDigits: undefined }));

describe('rules tried at their starts only', () => {
  it.each([
    ['PII', PII_RULES],
    ['SECRETS', SECRET_RULES],
  ] as const)('should find in %s exactly what a pass over the whole text finds', (_, rules) => {
    const whole = everywhere(rules);
    const same = (text: string): boolean =>
      JSON.stringify(runRules(rules, text, false)) === JSON.stringify(runRules(whole, text, false));
    expect(ALL.filter((text) => !same(text))).toEqual([]);
  });

  it('should try every injection cue wherever one pass would match it', () => {
    const differing: string[] = [];
    for (const text of ALL) {
      const scan = new Scan(text);
      CUES.forEach((c, i) => {
        if (c.starts.length === 0) {
          return;
        }
        const at = matchesAt(c.regex, text, CUE_STARTS.startsOf(i)(scan)).map((m) => m.index);
        c.regex.lastIndex = 0;
        if (
          JSON.stringify(at) !== JSON.stringify([...text.matchAll(c.regex)].map((m) => m.index))
        ) {
          differing.push(`cue ${i}: ${text}`);
        }
      });
    }
    expect(differing).toEqual([]);
  });
});

describe('base64Blobs', () => {
  const BLOB = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{40,4096}={0,2}(?![A-Za-z0-9+/=_-])/g;
  it('should give the spans the base64 regex matches', () => {
    const b64 = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9w';
    const extra = [
      b64,
      `${b64}=`,
      `${b64}==`,
      `${b64}===`,
      `_${b64}`,
      `-${b64}-`,
      'A'.repeat(4097),
    ];
    const spans = (text: string): string =>
      JSON.stringify([...text.matchAll(BLOB)].map((m) => [m.index, m.index + m[0].length]));
    const all = [...ALL, ...extra, extra.join(' '), extra.join('=')];
    expect(all.filter((text) => JSON.stringify(base64Blobs(text)) !== spans(text))).toEqual([]);
  });
});

describe('literalTrie', () => {
  it('should match exactly its literals', () => {
    const words = ['do', 'dob', 'date', 'data', 'd.o', 'né', 'a(b', 'x|y'];
    const re = new RegExp(`^(?:${literalTrie(words)})$`);
    for (const w of [...words, 'd', 'da', 'dat', 'dates', 'ab', 'x', '']) {
      expect([w, re.test(w)]).toEqual([w, words.includes(w)]);
    }
  });
});

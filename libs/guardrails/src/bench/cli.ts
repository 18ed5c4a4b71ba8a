import { performance } from 'node:perf_hooks';

import { findNumbers } from 'libphonenumber-js';

import { Finding } from '../finding';
import { detectPromptInjection } from '../injection';
import { detectPii } from '../pii';
import { detectSecrets } from '../secrets';
import { Labelled, ordinaryLines, readCorpus, scoreSpans } from './corpus';

// `npm run bench:guardrails`: precision and recall per type on the labelled corpora, findings per
// 10,000 ordinary lines, µs per KB on 64 KB of mixed text, the worst adversarial input (GR10).

const ENGINES: [string, (t: string) => Finding[]][] = [
  ['PII', detectPii],
  ['SECRETS', detectSecrets],
  ['PROMPT_INJECTION', detectPromptInjection],
];
const INJECTION_THRESHOLD = 0.5;
const r2 = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : '-');

interface Timing {
  /** Median wall-clock milliseconds. */
  wall: number;
  /** Least CPU milliseconds of this process: on a shared machine, the time not spent waiting. */
  cpu: number;
}

function timeMs(fn: () => unknown, runs: number): Timing {
  const times: number[] = [];
  let cpu = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return { wall: times[Math.floor(times.length / 2)], cpu };
}

function spanTable(name: string, rows: Labelled[], detect: (t: string) => Finding[]): void {
  console.log(`\n### ${name}: precision and recall per type (${rows.length} texts)\n`);
  console.log('| type | TP | FP | FN | precision | recall |\n|---|---|---|---|---|---|');
  for (const [type, s] of [...scoreSpans(rows, detect)].sort()) {
    console.log(
      `| ${type} | ${s.tp} | ${s.fp} | ${s.fn} | ${r2(s.tp / (s.tp + s.fp))} | ${r2(s.tp / (s.tp + s.fn))} |`,
    );
  }
}

function injectionTable(rows: Labelled[]): void {
  const flagged = (t: string): boolean =>
    detectPromptInjection(t).some((f) => f.score >= INJECTION_THRESHOLD);
  const attacks = rows.filter((r) => r.injection);
  const benign = rows.filter((r) => !r.injection);
  const tp = attacks.filter((r) => flagged(r.text)).length;
  const fp = benign.filter((r) => flagged(r.text)).length;
  console.log(`\n### PROMPT_INJECTION (flagged = a finding with score ≥ ${INJECTION_THRESHOLD})\n`);
  console.log('| attacks | recall | benign prompts | false-positive rate |\n|---|---|---|---|');
  console.log(
    `| ${attacks.length} | ${r2(tp / attacks.length)} | ${benign.length} | ${r2((100 * fp) / benign.length)} % |`,
  );
}

function ordinaryTable(lines: string[]): void {
  console.log(
    `\n### Findings per 10,000 lines of ordinary text (${lines.length} lines: docs and product source)\n`,
  );
  console.log('| engine | findings | per 10,000 lines | types |\n|---|---|---|---|');
  for (const [name, detect] of ENGINES) {
    const types = new Map<string, number>();
    for (const line of lines) {
      for (const f of detect(line)) {
        if (name !== 'PROMPT_INJECTION' || f.score >= INJECTION_THRESHOLD) {
          types.set(f.type, (types.get(f.type) ?? 0) + 1);
        }
      }
    }
    const n = [...types.values()].reduce((a, b) => a + b, 0);
    console.log(
      `| ${name} | ${n} | ${r2((n * 10000) / lines.length)} | ${[...types].map(([t, c]) => `${t} ${c}`).join(', ')} |`,
    );
  }
}

function adversarial(): [string, string][] {
  const n = 65536;
  const fill = (unit: string): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  return [
    ['a×64K', fill('a')],
    ['digits', fill('1')],
    ['digit groups', fill('4111 ')],
    ['a@ runs', fill('a.b@')],
    ['e-mail local part', fill('a').slice(0, n - 10) + '@x'],
    ['eyJ runs', fill('eyJ')],
    ['eyJ.eyJ.', fill('eyJaaaaaaaaa.')],
    ['BEGIN PRIVATE KEY', fill('-----BEGIN PRIVATE KEY-----')],
    ['hex colons', fill('a1:')],
    ['dots and digits', fill('1.2.')],
    ['base64 alphabet', fill('QUJD')],
    ['password= runs', fill('password=')],
    ['ignore previous', fill('ignore the previous ')],
    ['Capitalised words', fill('Mr Abc ')],
    ['street numbers', fill('12 Oak ')],
    ['phone punctuation', fill('+1 (2')],
    ['dob words', fill('born on ')],
    ['sk- runs', fill('sk-')],
    ['postgres://a:', fill('postgres://a:b')],
  ];
}

function speedTable(mixed: string, what: string): void {
  const kb = mixed.length / 1024;
  const baseline = timeMs(() => [...mixed.matchAll(/@/g)].length, 15);
  const perKb = (ms: number): string => r2((ms * 1000) / kb);
  console.log(
    `\n### Speed: ${r2(kb)} KB of ${what}; baseline /@/g scan ${perKb(baseline.wall)} µs/KB wall, ${perKb(baseline.cpu)} CPU\n`,
  );
  console.log(
    '| engine | µs per KB (wall, median of 15) | µs per KB (CPU, least of 15) | slowest adversarial 64 KB input (wall) | ms (wall, median of 5) | slowest (CPU) | ms (CPU, least of 5) |\n|---|---|---|---|---|---|---|',
  );
  for (const [name, detect] of ENGINES) {
    detect(mixed);
    const t = timeMs(() => detect(mixed), 15);
    let wall: [string, number] = ['', 0];
    let cpu: [string, number] = ['', 0];
    for (const [label, input] of adversarial()) {
      const a = timeMs(() => detect(input), 5);
      wall = a.wall > wall[1] ? [label, a.wall] : wall;
      cpu = a.cpu > cpu[1] ? [label, a.cpu] : cpu;
    }
    console.log(
      `| ${name} | ${perKb(t.wall)} | ${perKb(t.cpu)} | ${wall[0]} | ${r2(wall[1])} | ${cpu[0]} | ${r2(cpu[1])} |`,
    );
  }
}

/** GR3: libphonenumber-js's own text finder against the PHONE rule, on the same texts. */
function phoneComparison(rows: Labelled[], mixed: string): void {
  const libFind = (t: string): Finding[] =>
    findNumbers(t, { defaultCountry: 'US', v2: true }).map((m) => ({
      type: 'PHONE',
      start: m.startsAt,
      end: m.endsAt,
      score: 1,
    }));
  const ours = scoreSpans(rows, (t) => detectPii(t).filter((f) => f.type === 'PHONE')).get('PHONE');
  const lib = scoreSpans(rows, libFind).get('PHONE');
  const kb = mixed.length / 1024;
  console.log(
    '\n### PHONE: our rule (libphonenumber-js metadata) against libphonenumber-js findNumbers\n',
  );
  console.log('| finder | precision | recall | µs per KB |\n|---|---|---|---|');
  for (const [name, s, f] of [
    ['ours', ours, (t: string) => detectPii(t).filter((x) => x.type === 'PHONE')],
    ['findNumbers', lib, libFind],
  ] as const) {
    const ms = timeMs(() => f(mixed), 5).wall;
    console.log(
      `| ${name} | ${r2(s ? s.tp / (s.tp + s.fp) : NaN)} | ${r2(s ? s.tp / (s.tp + s.fn) : NaN)} | ${r2((ms * 1000) / kb)} |`,
    );
  }
}

function main(): void {
  const pii = readCorpus('pii.jsonl');
  const secrets = readCorpus('secrets.jsonl');
  const injection = readCorpus('injection.jsonl');
  const lines = ordinaryLines();
  const mixed =
    [...pii, ...secrets, ...injection].map((r) => r.text).join('\n') + '\n' + lines.join('\n');
  const sample = mixed.slice(0, 65536);
  console.log(`## Guardrails benchmark (node ${process.version})`);
  spanTable('PII', pii, detectPii);
  spanTable('SECRETS', secrets, detectSecrets);
  injectionTable(injection);
  ordinaryTable(lines);
  speedTable(sample, 'the labelled corpora, then ordinary text');
  speedTable(lines.join('\n').slice(0, 65536), 'ordinary text only');
  phoneComparison(pii, sample);
}

main();

// JSON text to Rego values (json.unmarshal, data files).
import * as path from 'node:path';
import { numberFromText } from '../values/decimal';
import { fromJson } from '../values/json';
import { fromJsonText } from '../values/json-text';
import { RegoObject, Value } from '../values/value';

/** Reads every member, so that lazily converted objects do the whole job too. */
function visit(v: Value): void {
  if (Array.isArray(v)) {
    v.forEach(visit);
  } else if (v instanceof RegoObject) {
    v.entries().forEach(([, x]) => visit(x));
  }
}

type Parse = (text: string) => Value;

function losslessJson(): Parse | undefined {
  const dir = process.env.LOSSLESS_JSON;
  if (!dir) {
    return undefined;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lib = require(path.resolve(dir)) as {
    parse: (text: string, reviver: null, parseNumber: (t: string) => unknown) => unknown;
  };
  return (text) => fromJson(lib.parse(text, null, numberFromText));
}

function texts(): [string, string][] {
  const users = Array.from({ length: 40 }, (_, i) => ({
    id: `user-${i}`,
    roles: ['reader', i % 3 === 0 ? 'admin' : 'writer'],
    active: i % 2 === 0,
    quota: i * 10,
  }));
  const plain = JSON.stringify({ tenant: 'acme', users });
  const decimals = JSON.stringify({
    tenant: 'acme',
    users: users.map((u, i) => ({ ...u, score: i + 0.25 })),
  }).replace(/"quota":(\d+)/g, '"quota":$1.0');
  return [
    [`integers and strings, ${(plain.length / 1024).toFixed(1)} KB`, plain],
    [`with decimals and 1.0-style texts, ${(decimals.length / 1024).toFixed(1)} KB`, decimals],
    ['one big integer', '{"id": 123456789012345678901234567890}'],
  ];
}

function measure(parse: Parse, text: string, iterations: number): number {
  for (let i = 0; i < 2000; i++) {
    parse(text);
  }
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) {
      parse(text);
    }
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1000 / iterations);
  }
  return best;
}

const iterations = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const parsers: [string, Parse][] = [
  ['JSON.parse + fromJson (main)', (t) => fromJson(JSON.parse(t) as unknown)],
  ['fromJsonText', fromJsonText],
];
const lossless = losslessJson();
if (lossless) {
  parsers.push(['lossless-json + fromJson', lossless]);
}
console.log(
  `JSON text → Rego values, node ${process.version}, µs per call (best of 3 × ${iterations})`,
);
for (const [name, text] of texts()) {
  console.log(`\n${name}`);
  for (const [label, parse] of parsers) {
    const full: Parse = (t) => {
      const v = parse(t);
      visit(v);
      return v;
    };
    console.log(`  ${label.padEnd(30)} ${measure(full, text, iterations).toFixed(2).padStart(8)}`);
  }
}

// Run it twice with the order swapped.
import * as path from 'node:path';
import type { compilePolicy } from '../policy';
import { scenarios } from './scenarios';

type Build = { compilePolicy: typeof compilePolicy };

function load(dir: string): Build {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.resolve(dir, 'policy.js')) as Build;
}

const [first, second] = process.argv.slice(2);
if (!first || !second) {
  throw new Error('usage: node dist/bench/interleaved.js <first dist> <second dist>');
}
const builds = [load(first), load(second)];
const s = scenarios()[Number(process.env.BENCH_SCENARIO ?? 0)];
const policies = builds.map((b) => b.compilePolicy(s.modules, { data: s.data }));
const rounds: number[][] = [[], []];
for (let r = 0; r < 12; r++) {
  policies.forEach((p, k) => {
    const t = process.hrtime.bigint();
    for (let i = 0; i < 20000; i++) {
      p.evaluateRule(s.ref, { input: s.inputs[i % s.inputs.length] });
    }
    rounds[k].push(Number(process.hrtime.bigint() - t) / 20000 / 1000);
  });
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `${s.name}: ${first} ${median(rounds[0]).toFixed(3)} µs, ${second} ${median(rounds[1]).toFixed(3)} µs`,
);

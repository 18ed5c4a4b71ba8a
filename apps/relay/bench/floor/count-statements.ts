import { writeFileSync } from 'node:fs';

/**
 * BENCH_STATEMENTS=1 (R46): preloaded into each service the bench starts (`--require`), it counts
 * the statements the process sends through `pg` by their first words and writes the counts to
 * `BENCH_STATEMENTS_FILE` every 200 ms, so a row reads statements per call like its CPU.
 */
const out = process.env.BENCH_STATEMENTS_FILE;
if (out) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require('pg') as typeof import('pg');
  const counts: Record<string, number> = {};
  const original = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function counted(this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text =
      typeof first === 'string'
        ? first
        : typeof (first as { text?: unknown })?.text === 'string'
          ? (first as { text: string }).text
          : 'COPY';
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    counts[key] = (counts[key] ?? 0) + 1;
    return original.apply(this, args);
  } as typeof Client.prototype.query;
  const flush = (): void => writeFileSync(out, JSON.stringify(counts));
  setInterval(flush, 200).unref();
  process.on('exit', flush);
}

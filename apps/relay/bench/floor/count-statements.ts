import { renameSync, writeFileSync } from 'node:fs';

/**
 * BENCH_STATEMENTS=1 (relay.md R38): preloaded into each service the bench starts (`--require`), it counts
 * the statements the process sends through `pg` by their first words and writes the counts to
 * `BENCH_STATEMENTS_FILE` every 500 ms when they changed, so a row reads statements per call like its CPU.
 */
const out = process.env.BENCH_STATEMENTS_FILE;
if (out) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require('pg') as typeof import('pg');
  const counts: Record<string, number> = {};
  let changed = true;
  const original = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function counted(this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text =
      typeof first === 'string'
        ? first
        : typeof (first as { text?: unknown })?.text === 'string'
          ? (first as { text: string }).text
          : 'COPY';
    // F53: a named (prepared) statement is counted apart, so a row shows which ones skip parsing.
    const named = typeof (first as { name?: unknown })?.name === 'string' ? '[named] ' : '';
    const key = named + text.replace(/\s+/g, ' ').trim().slice(0, 90);
    counts[key] = (counts[key] ?? 0) + 1;
    changed = true;
    return original.apply(this, args);
  } as typeof Client.prototype.query;
  // Written aside and renamed, so the bench never reads half a file.
  const flush = (): void => {
    if (!changed) {
      return;
    }
    changed = false;
    writeFileSync(`${out}.tmp`, JSON.stringify(counts));
    renameSync(`${out}.tmp`, out);
  };
  setInterval(flush, 500).unref();
  process.on('exit', flush);
}

import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** What the engine may import besides itself: the shared contracts and hashing (README, A20). */
const ALLOWED = new Set(['@agp/contracts', 'node:crypto']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('the monitors engine (pure: no I/O, nothing of the service)', () => {
  it('imports only the engine, the contracts and node:crypto', () => {
    const outside: string[] = [];
    for (const file of sources(__dirname)) {
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/from '([^']+)'/g)) {
        const inEngine =
          spec.startsWith('.') &&
          !relative(__dirname, resolve(dirname(file), spec)).startsWith('..');
        if (!inEngine && !ALLOWED.has(spec)) {
          outside.push(`${relative(__dirname, file)}: ${spec}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });
});

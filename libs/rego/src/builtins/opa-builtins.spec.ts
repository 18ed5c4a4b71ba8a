import * as fs from 'node:fs';
import * as path from 'node:path';
import './all';
import { OPA_BUILTINS, builtinTable } from './opa-builtins';
import { builtinRegistry } from './registry';

const README = path.resolve(__dirname, '..', '..', 'README.md');
const START = '<!-- builtins-table:start -->';
const END = '<!-- builtins-table:end -->';

describe("OPA's built-ins", () => {
  it('should know every built-in of the registry by its OPA name', () => {
    const opa = new Set<string>(OPA_BUILTINS);
    const extra = [...builtinRegistry().keys()].filter(
      (n) => !n.startsWith('internal.') && !n.startsWith('agp.') && !opa.has(n),
    );

    expect(extra).toEqual([]);
  });

  it('should list the registry in the README table (npm run builtins:table prints it)', () => {
    const text = fs.readFileSync(README, 'utf8');
    const table = text.slice(text.indexOf(START) + START.length, text.indexOf(END)).trim();

    expect(normalize(table)).toBe(normalize(builtinTable()));
  });
});

/** Prettier pads markdown tables; compare cell contents only. */
function normalize(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split('|')
            .map((cell) => cell.trim().replace(/^-+$/, '-'))
            .join('|')
        : line.trim(),
    )
    .join('\n');
}

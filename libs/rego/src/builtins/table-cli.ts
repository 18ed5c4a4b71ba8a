import * as fs from 'node:fs';
import * as path from 'node:path';
import './all';
import { builtinTable } from './opa-builtins';

/** `npm run builtins:table -w @agp/rego`: rewrites the README's built-in table from the registry. */
const readme = path.resolve(__dirname, '..', '..', 'README.md');
const START = '<!-- builtins-table:start -->';
const END = '<!-- builtins-table:end -->';
const text = fs.readFileSync(readme, 'utf8');
const a = text.indexOf(START);
const b = text.indexOf(END);
if (a < 0 || b < a) {
  throw new Error(`README.md has no ${START} … ${END} section`);
}
fs.writeFileSync(readme, `${text.slice(0, a + START.length)}\n${builtinTable()}\n${text.slice(b)}`);
process.stdout.write(`${readme}: built-in table rewritten\n`);

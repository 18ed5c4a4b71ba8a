import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { generateContracts } from './contracts.generator';

// `npm run contracts -w @agp/console`: rewrites src/api/contracts/<service>.ts (F27).
// `--check` writes nothing: it prints `current <file>` or `stale <file>` for each and fails on a
// stale one (contracts.generator.spec.ts runs it so).
const repoDir = fileURLToPath(new URL('../../../../../', import.meta.url));
const isCheck = process.argv.includes('--check');
for (const [file, code] of await generateContracts(repoDir)) {
  if (!isCheck) {
    await writeFile(file, code);
    console.log(`wrote ${file}`);
  } else if ((await readFile(file, 'utf8').catch(() => '')) === code) {
    console.log(`current ${file}`);
  } else {
    console.log(`stale ${file}`);
    process.exitCode = 1;
  }
}

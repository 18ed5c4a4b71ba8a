#!/usr/bin/env node
// `npm start`'s build: transpile every lib's and app's src/ to dist/ with SWC (same layout and
// output as tsc: CommonJS, decorators with metadata), in a couple of seconds. Type checking is
// `npm test`'s job (tsc through turbo); this only makes the code runnable.
import { spawnSync } from 'node:child_process';

import { transformFile } from '@swc/core';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONFIG_ONLY = new Set(['tsconfig', 'jest-config', 'eslint-config']);

const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: true,
};

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      yield* sources(path);
    } else if (!name.endsWith('.spec.ts') && !name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

const all = ['libs', 'apps']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
  .filter((dir) => !CONFIG_ONLY.has(dir.split('/').at(-1)) && existsSync(join(dir, 'src')));
// A browser application (the console) is bundled by Vite, not transpiled file by file.
const isBrowserApp = (dir) => existsSync(join(dir, 'vite.config.ts'));
const packages = all.filter((dir) => !isBrowserApp(dir));

function newestChange(dir) {
  let newest = 0;
  for (const file of sources(dir)) {
    newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

const started = Date.now();
let count = 0;
await Promise.all(
  packages.flatMap((dir) =>
    [...sources(join(dir, 'src'))].map(async (file) => {
      const target = join(dir, 'dist', relative(join(dir, 'src'), file));
      mkdirSync(dirname(target), { recursive: true });
      if (!file.endsWith('.ts')) {
        copyFileSync(file, target);
        return;
      }
      const output = await transformFile(file, { ...options, filename: file });
      const js = target.replace(/\.ts$/, '.js');
      writeFileSync(js, `${output.code}\n//# sourceMappingURL=${js.split('/').at(-1)}.map\n`);
      writeFileSync(`${js}.map`, output.map ?? '');
      count += 1;
    }),
  ),
);
console.log(`agp: transpiled ${count} files in ${Date.now() - started} ms`);

// After the transpile: a browser app imports libraries (`@agp/contracts/enums`) from their dist/.
for (const dir of all.filter(isBrowserApp)) {
  const built = join(dir, 'dist', 'index.html');
  if (existsSync(built) && statSync(built).mtimeMs >= newestChange(join(dir, 'src'))) {
    continue;
  }
  console.log(`agp: bundling ${relative(root, dir)} with Vite …`);
  const vite = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: dir,
    stdio: 'inherit',
  });
  if (vite.status !== 0) {
    process.exit(vite.status ?? 1);
  }
}

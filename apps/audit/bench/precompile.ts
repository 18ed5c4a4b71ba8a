import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transformFileSync } from '@swc/core';

const REPO = join(__dirname, '..', '..', '..');
const TREES = [
  'libs',
  'apps/audit/src',
  'apps/audit/test/support',
  'apps/audit/bench',
  'apps/audit/tools',
];

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) {
      continue;
    }
    if (statSync(path).isDirectory()) {
      yield* sources(path);
    } else if (
      (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.spec.ts')) ||
      name.endsWith('.json')
    ) {
      yield path;
    }
  }
}

/**
 * Compiles the workspace's TypeScript once, as the jest and register hooks would, into a mirror
 * tree; returns its root. Processes started from it (resolve-precompiled.js) carry no compiler.
 */
export function precompile(): string {
  // Inside the workspace (gitignored), so that node_modules resolve as from the sources.
  const out = join(REPO, 'apps', 'audit', 'dist-bench', `precompiled-${process.pid}`);
  for (const tree of TREES) {
    for (const file of sources(join(REPO, tree))) {
      if (file.endsWith('.json')) {
        // Data the sources read beside them (libs/http's response schemas).
        const target = join(out, relative(REPO, file));
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(file, target);
        continue;
      }
      const { code } = transformFileSync(file, {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: {
            legacyDecorator: true,
            decoratorMetadata: true,
            useDefineForClassFields: false,
          },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: false,
      });
      const target = join(out, relative(REPO, file)).replace(/\.ts$/, '.js');
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, code);
    }
  }
  // A library's own dependencies (libs/testing's ajv 8) resolve from its folder, as they do from
  // the sources.
  for (const lib of readdirSync(join(REPO, 'libs'))) {
    const modules = join(REPO, 'libs', lib, 'node_modules');
    const mirror = join(out, 'libs', lib, 'node_modules');
    if (existsSync(modules) && existsSync(dirname(mirror)) && !existsSync(mirror)) {
      symlinkSync(modules, mirror, 'dir');
    }
  }
  return out;
}

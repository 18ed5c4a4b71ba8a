#!/usr/bin/env node
// The pre-commit hook's lint (STYLE § 11): each staged TypeScript file linted by its own
// workspace's ESLint config, with no warnings allowed, and no test focused with `.only`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.cwd();
const byWorkspace = new Map();
let focused = [];
for (const file of process.argv.slice(2)) {
  const path = relative(root, file);
  if (
    /\.(e2e-)?spec\.ts$/.test(path) &&
    /\b(describe|it|test)\.only\(/.test(readFileSync(file, 'utf8'))
  ) {
    focused.push(path);
  }
  const [group, name] = path.split('/');
  const workspace = group === 'apps' || group === 'libs' ? join(group, name) : undefined;
  if (workspace && existsSync(join(root, workspace, 'eslint.config.js'))) {
    byWorkspace.set(workspace, [...(byWorkspace.get(workspace) ?? []), relative(workspace, path)]);
  }
}
if (focused.length > 0) {
  console.error(`a focused test (.only) would skip the others: ${focused.join(', ')}`);
  process.exit(1);
}
let status = 0;
for (const [workspace, files] of byWorkspace) {
  const run = spawnSync('npx', ['eslint', '--max-warnings', '0', '--no-warn-ignored', ...files], {
    cwd: join(root, workspace),
    stdio: 'inherit',
  });
  status ||= run.status ?? 1;
}
process.exit(status);

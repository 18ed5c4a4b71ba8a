#!/usr/bin/env node
// Both README commands start here: install the workspace's dependencies when they are missing or
// older than the lock file, so `npm start` and `npm test` work right after cloning.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const installed = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');

const isStale = !existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs;
if (isStale) {
  console.log('agp: installing dependencies (npm ci) …');
  execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}

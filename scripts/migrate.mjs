#!/usr/bin/env node
// `npm run migrate`: every service's schema migrations against DATABASE_URL (D4), in order.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!process.env.DATABASE_URL) {
  console.error('invalid configuration: DATABASE_URL is required');
  process.exit(1);
}
for (const service of ['tenant-auth', 'relay', 'audit']) {
  execFileSync(process.execPath, [join(root, 'apps', service, 'dist', 'migrate.js')], {
    stdio: 'inherit',
  });
}

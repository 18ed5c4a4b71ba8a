#!/usr/bin/env node
// The README's first command as a newcomer runs it: `npm start` on this tree with nothing set (no
// DATABASE_URL, no NATS_URL: the embedded default), on a free port and a data directory of its
// own. Passes when the platform answers ready, serves the console and its JWKS; then stops it.
// CI runs it on the clean clone before `npm test`, so a start that only works on a tree already
// built by the tests (dist/ left by turbo) is caught.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const READY_WITHIN_MS = 240_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function get(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return { status: response.status, text: await response.text() };
  } catch {
    return { status: 0, text: '' };
  }
}

async function untilReady(base, platform) {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (platform.exitCode !== null) {
      throw new Error(`npm start exited with ${platform.exitCode} before it was ready`);
    }
    if ((await get(`${base}/health/ready`)).status === 200) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`npm start was not ready within ${READY_WITHIN_MS / 1000} s`);
}

async function check(base) {
  const page = await get(`${base}/`);
  if (page.status !== 200 || !page.text.includes('<div id="root">')) {
    throw new Error(`GET / answered ${page.status}, not the console's page`);
  }
  const jwks = await get(`${base}/tenant-auth/v1/.well-known/jwks.json`);
  if (jwks.status !== 200 || !Array.isArray(JSON.parse(jwks.text || '{}').keys)) {
    throw new Error(`GET /tenant-auth/v1/.well-known/jwks.json answered ${jwks.status}`);
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'agp-smoke-start-'));
const port = await freePort();
const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;
delete env.NATS_URL;
const output = [];
// Its own process group, so that stopping it stops npm's child (the platform) too.
const platform = spawn('npm', ['start'], {
  cwd: root,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
const closed = new Promise((resolve) => platform.once('close', resolve));
platform.stdout.on('data', (chunk) => output.push(chunk));
platform.stderr.on('data', (chunk) => output.push(chunk));

let failure;
try {
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  await untilReady(base, platform);
  await check(base);
  console.log(`smoke-start: npm start ready in ${Math.round((Date.now() - started) / 1000)} s`);
} catch (error) {
  failure = error;
} finally {
  if (platform.exitCode === null) {
    process.kill(-platform.pid, 'SIGTERM');
  }
  await closed;
  rmSync(dataDir, { recursive: true, force: true });
}
if (failure) {
  process.stderr.write(Buffer.concat(output).toString().split('\n').slice(-60).join('\n'));
  console.error(`\nsmoke-start: ${failure.message}`);
  process.exit(1);
}

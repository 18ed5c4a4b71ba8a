import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { eventually } from '@agp/testing';

const ENTRY = join(__dirname, '..', 'dist', 'embedded.js');

let stderr = '';

function startEmbedded(dataDir: string, port: number): ChildProcess {
  const child = spawn(process.execPath, [ENTRY], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      NATS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk.toString()}`.slice(-4_000);
  });
  return child;
}

/** Nest closes the application on SIGTERM, then re-raises the signal: either ending is orderly. */
async function stop(child: ChildProcess): Promise<string> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return 'already stopped';
  }
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) =>
      resolve(code === 0 || signal === 'SIGTERM' ? 'orderly' : `code ${code}`),
    ),
  );
  child.kill('SIGTERM');
  return exited;
}

async function ready(
  port: number,
): Promise<{ status: number; body: { checks: Record<string, string> } }> {
  const response = await fetch(`http://127.0.0.1:${port}/health/ready`).catch((error: Error) => {
    throw new Error(`${error.message}; the process said: ${stderr || '(nothing)'}`);
  });
  if (response.status !== 200) {
    throw new Error(`not ready: ${response.status}`);
  }
  return {
    status: response.status,
    body: (await response.json()) as { checks: Record<string, string> },
  };
}

/** D2: `npm start` needs nothing installed or running, and keeps its data across restarts. */
describe('embedded one-process platform', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'agp-embedded-'));
  const port = 18_400 + Math.floor(Math.random() * 500);
  let child: ChildProcess | undefined;

  afterAll(async () => {
    if (child) {
      await stop(child);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('should be ready with every service on an empty data directory, then again after a restart', async () => {
    child = startEmbedded(dataDir, port);
    const first = await eventually(() => ready(port), 1_800, 50);
    expect(first.body.checks).toEqual({
      events: 'up',
      'database:tenant_auth': 'up',
      'database:relay': 'up',
      'database:audit': 'up',
    });
    expect(existsSync(join(dataDir, 'pgdata'))).toBe(true);
    // D37: the relay's credential key, generated once and kept for its owner only.
    const keyFile = join(dataDir, 'relay-secrets.key');
    const key = readFileSync(keyFile, 'utf8');
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(await stop(child)).toBe('orderly');

    child = startEmbedded(dataDir, port);
    const second = await eventually(() => ready(port), 1_800, 50);
    expect(second.status).toBe(200);
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
    expect(await stop(child)).toBe('orderly');
  }, 240_000);
});

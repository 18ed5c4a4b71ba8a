import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { eventually } from '@agp/testing';

const ENTRY = join(__dirname, '..', '..', 'dist', 'main.js');

export interface EmbeddedPlatform {
  url: string;
  /** The bootstrapped administrator (D11). */
  admin: { tenant: string; tenantId: string; email: string; password: string };
  stop(): Promise<void>;
}

/** `npm start` as a newcomer runs it (D2): its own process, PGlite, the console at `/`. */
export async function startEmbeddedPlatform(
  env: Record<string, string> = {},
): Promise<EmbeddedPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agp-console-'));
  const port = 18_900 + Math.floor(Math.random() * 500);
  // The console's origin is the issuer's: the browser goes to the same name PUBLIC_BASE_URL gives.
  const url = `http://localhost:${port}`;
  let stderr = '';
  const child: ChildProcess = spawn(process.execPath, [ENTRY], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      NATS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk.toString()}`.slice(-4_000);
  });
  await eventually(
    async () => {
      const response = await fetch(`${url}/health/ready`).catch((error: Error) => {
        throw new Error(`${error.message}; the process said: ${stderr || '(nothing)'}`);
      });
      if (response.status !== 200) {
        throw new Error(`not ready: ${response.status}`);
      }
    },
    1_800,
    50,
  );
  const admin = JSON.parse(
    readFileSync(join(dataDir, 'bootstrap.json'), 'utf8'),
  ) as EmbeddedPlatform['admin'];
  return {
    url,
    admin,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

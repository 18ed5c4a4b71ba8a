import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '@agp/testing';

import { BenchTarget, token } from '../mcp/bench-platform';
import { ServiceProcess, startService, stopService } from '../mcp/platform-processes';

/** `npm start` as a new user runs it (issue 31 item 4): one process, PGlite, events in-process. */
export interface OneProcess extends BenchTarget {
  service: ServiceProcess;
  stop(): Promise<void>;
}

export async function startOneProcess(): Promise<OneProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agp-bench-runner-'));
  // Its own database and bus: nothing of the services' setting may leak into the embedded default.
  const inherited = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'NATS_URL',
    'NATS_PREFIX',
    'PUBLIC_BASE_URL',
    'SECRETS_KEY',
  ]) {
    delete inherited[name];
  }
  const port = await freePort();
  const service = await startService(
    'runner',
    port,
    { DATA_DIR: dataDir, LOG_LEVEL: 'warn', TOKEN_RATE_LIMIT_PER_ADDRESS: '1000000' },
    inherited,
  );
  const gatewayUrl = service.url;
  return {
    gatewayUrl,
    service: { ...service, name: 'one process' },
    adminToken: async () => {
      const admin = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
        tenant: string;
        email: string;
        password: string;
      };
      return token(gatewayUrl, {
        grant_type: 'password',
        tenant: admin.tenant,
        username: admin.email,
        password: admin.password,
      });
    },
    stop: async () => {
      await stopService(service);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

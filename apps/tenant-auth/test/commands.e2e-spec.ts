import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { TestDatabase, createTestDatabase } from '@agp/testing';

import { BASE_URL, TenantAuthHarness, passwordToken, startTenantAuth } from './tenant-auth-harness';

const DIST = join(__dirname, '..', 'dist');

/** The operator's commands (D11, D9), run from the build as `npm run bootstrap` / `rotate-keys` run them. */
describe('commands', () => {
  let database: TestDatabase;
  const dir = mkdtempSync(join(tmpdir(), 'agp-commands-'));

  const run = (script: string, args: string[] = []) =>
    spawnSync(process.execPath, [join(DIST, script), ...args], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        KEY_ENCRYPTION_SECRET: 'c'.repeat(40),
        PUBLIC_BASE_URL: BASE_URL,
        LOG_LEVEL: 'info',
      },
      encoding: 'utf8',
    });

  beforeAll(async () => {
    database = await createTestDatabase('ta_commands');
  });

  afterAll(async () => {
    await database.drop();
  });

  it('should bootstrap a tenant, keep the password out of the output and in a 0600 file that signs in', async () => {
    const out = join(dir, 'acme.json');
    const result = run('bootstrap.js', [
      '--tenant',
      'acme',
      '--email',
      'admin@acme.example',
      '--out',
      out,
    ]);
    expect(result.status).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(result.stdout).toContain('tenant acme');
    expect(result.stdout).toContain(`${BASE_URL}/tenant-auth/v1/oauth/token`);
    expect(result.stdout + result.stderr).not.toContain(written.password);

    let harness: TenantAuthHarness | undefined;
    try {
      harness = await startTenantAuth({ database, env: { KEY_ENCRYPTION_SECRET: 'c'.repeat(40) } });
      await expect(passwordToken(harness, written)).resolves.toEqual(expect.any(String));
    } finally {
      await harness?.close();
    }
  });

  it('should refuse a tenant that exists and arguments that are missing', () => {
    const again = run('bootstrap.js', [
      '--tenant',
      'acme',
      '--email',
      'other@acme.example',
      '--out',
      join(dir, 'again.json'),
    ]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('bootstrap failed');
    const missing = run('bootstrap.js', ['--tenant', 'acme']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('usage');
  });

  it('should rotate the signing key when asked', () => {
    const first = run('rotate-keys.js');
    const second = run('rotate-keys.js');
    expect([first.status, second.status]).toEqual([0, 0]);
    const kid = (text: string): string | undefined => /new kid ([0-9a-f-]{36})/.exec(text)?.[1];
    expect(kid(first.stdout)).toBeDefined();
    expect(kid(second.stdout)).not.toBe(kid(first.stdout));
  });
});

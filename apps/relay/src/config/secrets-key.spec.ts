import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { EMBEDDED_SECRETS_KEY_FILE, decodeSecretsKey, embeddedSecretsKey } from './secrets-key';

describe(embeddedSecretsKey.name, () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'relay-key-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should generate a 32-byte key readable by its owner only when DATA_DIR has none', () => {
    const dataDir = join(dir, 'data');

    const sut = embeddedSecretsKey(dataDir);

    expect(decodeSecretsKey(sut)).toHaveLength(32);
    expect(statSync(join(dataDir, EMBEDDED_SECRETS_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('should answer the same key when started again on the same DATA_DIR', () => {
    const first = embeddedSecretsKey(dir);

    const second = embeddedSecretsKey(dir);

    expect(second).toBe(first);
    expect(embeddedSecretsKey(mkdtempSync(join(tmpdir(), 'relay-key-')))).not.toBe(first);
  });
});

describe(decodeSecretsKey.name, () => {
  it('should decode standard and URL-safe base64 when it holds 32 bytes', () => {
    const key = randomBytes(32);

    expect(decodeSecretsKey(key.toString('base64'))).toEqual(key);
    expect(decodeSecretsKey(key.toString('base64url'))).toEqual(key);
  });

  it('should refuse naming SECRETS_KEY when the length is wrong', () => {
    expect(() => decodeSecretsKey(randomBytes(16).toString('base64'))).toThrow(/SECRETS_KEY/);
  });
});

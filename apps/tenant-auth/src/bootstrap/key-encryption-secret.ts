import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { SecretSealer } from '@agp/sealing';

/** The embedded default (D2) needs no configuration. */
export function keyEncryptionSecret(configured: string | undefined, dataDir: string): string {
  if (configured) {
    return configured;
  }
  const file = join(dataDir, 'key-encryption.secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') {
        throw error;
      }
    }
  }
  return readFileSync(file, 'utf8').trim();
}

/** The salt is the one the values were first sealed with (F37). */
export function keyEncryptionSealer(configured: string | undefined, dataDir: string): SecretSealer {
  return SecretSealer.fromSecret(
    keyEncryptionSecret(configured, dataDir),
    'agp/tenant-auth/secret-box',
    { keyName: 'KEY_ENCRYPTION_SECRET' },
  );
}

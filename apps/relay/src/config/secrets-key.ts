import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const EMBEDDED_SECRETS_KEY_FILE = 'relay-secrets.key';

/** SECRETS_KEY as the 32 bytes of an AES-256 key; throws naming the variable otherwise. */
export function decodeSecretsKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) {
    throw new Error('invalid configuration: SECRETS_KEY must be the base64 of 32 bytes');
  }
  return key;
}

/** D2: kept in DATA_DIR (0600) and reused on every start, so sealed credentials stay readable. */
export function embeddedSecretsKey(dataDir: string): string {
  const file = join(dataDir, EMBEDDED_SECRETS_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process of the same DATA_DIR wrote it first: use theirs.
      if ((error as { code?: string }).code !== 'EEXIST') {
        throw error;
      }
    }
  }
  return readFileSync(file, 'utf8').trim();
}

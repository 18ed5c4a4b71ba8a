import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from 'node:crypto';

import { LegacySealed, parseLegacy } from './legacy-formats';

const FORMAT = 'v2';
const KEY_BYTES = 32;

export interface SecretSealerOptions {
  /** What the key is configured as (`SECRETS_KEY`), named when a value was sealed under another. */
  keyName?: string;
}

/** A short, non-secret name of a key, stored with each sealed value to tell keys apart. */
function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}

/** A value sealed under another key, or altered, never decrypts wrongly: `decrypt` throws (F37). */
export class SecretSealer {
  private readonly keyId: string;
  private readonly keyName: string;

  constructor(
    private readonly key: Buffer,
    options: SecretSealerOptions = {},
  ) {
    this.keyName = options.keyName ?? 'the key';
    if (key.length !== KEY_BYTES) {
      throw new Error(`SecretSealer needs a 32-byte key (${this.keyName})`);
    }
    this.keyId = keyIdOf(key);
  }

  // The scrypt salt names the use and must stay what it was when the values were sealed.
  static fromSecret(secret: string, salt: string, options?: SecretSealerOptions): SecretSealer {
    return new SecretSealer(scryptSync(secret, salt, KEY_BYTES), options);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const header = `${FORMAT}.${this.keyId}`;
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(header));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      header,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join('.');
  }

  decrypt(sealed: string): string {
    const parts = sealed.split('.');
    if (parts[0] !== FORMAT) {
      return this.openLegacy(parseLegacy(parts));
    }
    const [, keyId, iv, tag, data, ...rest] = parts;
    if (!keyId || !iv || !tag || data === undefined || rest.length > 0) {
      throw new Error('not a sealed value');
    }
    this.checkKeyId(keyId);
    return this.open(iv, tag, data, Buffer.from(`${FORMAT}.${keyId}`));
  }

  private openLegacy(legacy: LegacySealed): string {
    if (legacy.keyId !== undefined) {
      this.checkKeyId(legacy.keyId);
    }
    return this.open(legacy.iv, legacy.tag, legacy.data);
  }

  private checkKeyId(keyId: string): void {
    if (keyId !== this.keyId) {
      throw new Error(`value sealed with another key (${keyId}); is ${this.keyName} the same?`);
    }
  }

  private open(iv: string, tag: string, data: string, aad?: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    if (aad) {
      decipher.setAAD(aad);
    }
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';

import { SECRETS_KEY } from '../config/relay-config.module';

const FORMAT = 'v1';

/** A short, non-secret name of a key, stored with each sealed value to tell keys apart. */
function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}

/**
 * D37: upstream credentials at rest. AES-256-GCM with a fresh 96-bit IV per value; the sealed form
 * is `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url), so a later format or a rotated key can be
 * told apart from this one. A value sealed with another key, or altered, never decrypts wrongly:
 * `decrypt` throws.
 */
@Injectable()
export class CredentialCipher {
  private readonly keyId: string;

  constructor(@Inject(SECRETS_KEY) private readonly key: Buffer) {
    if (key.length !== 32) {
      throw new Error('CredentialCipher needs a 32-byte key (SECRETS_KEY)');
    }
    this.keyId = keyIdOf(key);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      FORMAT,
      this.keyId,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join('.');
  }

  decrypt(sealed: string): string {
    const [format, keyId, iv, tag, data, ...rest] = sealed.split('.');
    if (format !== FORMAT || !keyId || !iv || !tag || data === undefined || rest.length > 0) {
      throw new Error('not a sealed credential');
    }
    if (keyId !== this.keyId) {
      throw new Error(`credential sealed with another key (${keyId}); is SECRETS_KEY the same?`);
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}

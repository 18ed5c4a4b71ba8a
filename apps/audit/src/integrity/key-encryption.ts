import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

const SALT = 'agp-audit-signing-key-v1';

function keyOf(secret: string): Buffer {
  return scryptSync(secret, SALT, 32);
}

/** AES-256-GCM under a key derived from AUDIT_SIGNING_KEY_SECRET: `v1.<iv>.<tag>.<ciphertext>`. */
export function encryptPrivateKey(pem: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(pem, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

/** Throws when the secret is not the one the key was stored with (the tag does not verify). */
export function decryptPrivateKey(sealed: string, secret: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !body) {
    throw new Error('unknown signing key format');
  }
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

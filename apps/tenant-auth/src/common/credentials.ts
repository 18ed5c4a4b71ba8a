import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const SCRYPT = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function scryptAsync(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, 32, SCRYPT, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A person's password: scrypt (N=2^14, r=8, p=1), salted; stored as `scrypt$<salt>$<hash>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Constant-time check; a missing hash still costs one scrypt, so an unknown user answers as slowly. */
export async function verifyPassword(
  password: string,
  stored: string | null | undefined,
): Promise<boolean> {
  const [scheme, salt, hash] = (stored ?? 'scrypt$AAAAAAAAAAAAAAAAAAAAAA$').split('$');
  const expected = Buffer.from(hash ?? '', 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt ?? '', 'base64url'));
  return (
    scheme === 'scrypt' &&
    expected.length === actual.length &&
    timingSafeEqual(expected, actual) &&
    !!stored
  );
}

/** A client secret: 256 random bits, shown once (D30). */
export function newClientSecret(): string {
  return `agp_${randomBytes(32).toString('base64url')}`;
}

// identity.md I5: a client secret has 256 bits of entropy, so a fast hash (SHA-256) is as safe as a
// slow one and keeps the token endpoint fast; people's passwords get scrypt.
export function hashClientSecret(secret: string): string {
  return `sha256$${createHash('sha256').update(secret).digest('base64url')}`;
}

export function verifyClientSecret(secret: string, stored: string | null | undefined): boolean {
  const expected = Buffer.from(stored ?? 'sha256$' + 'A'.repeat(43));
  const actual = Buffer.from(hashClientSecret(secret));
  return expected.length === actual.length && timingSafeEqual(expected, actual) && !!stored;
}

/** A password for a bootstrapped administrator: 24 random characters. */
export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}

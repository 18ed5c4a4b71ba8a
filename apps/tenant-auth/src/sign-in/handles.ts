import { createHash, randomBytes } from 'node:crypto';

/**
 * Session cookies, codes and refresh tokens are 256 random bits; only their SHA-256 is stored, so
 * a copy of the database signs nobody in (identity.md I5's reasoning for client secrets).
 */
export function newHandle(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function hashHandle(handle: string): string {
  return createHash('sha256').update(handle).digest('base64url');
}

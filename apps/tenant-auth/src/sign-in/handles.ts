import { createHash, randomBytes } from 'node:crypto';

/** Session cookies, codes and refresh tokens are 256 random bits (I5). */
export function newHandle(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function hashHandle(handle: string): string {
  return createHash('sha256').update(handle).digest('base64url');
}

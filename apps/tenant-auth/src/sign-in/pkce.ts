import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43–128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** The S256 challenge: a base64url SHA-256, 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Whether `verifier` is the one whose S256 challenge the authorization request carried. */
export function isPkceVerifierRight(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) {
    return false;
  }
  const actual = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

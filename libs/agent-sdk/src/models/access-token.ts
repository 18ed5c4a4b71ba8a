import { asObject, optionalNumber, optionalString, requiredString } from './wire';

export const TOKEN_EXPIRY_BUFFER_MS = 60_000;

/** A token from the token endpoint (D7), with the moment it was issued. */
export interface AccessToken {
  accessToken: string;
  tokenType: string;
  expiresIn: number;
  scope: string;
  issuedAt: number;
}

export function parseAccessToken(value: unknown, issuedAt: number): AccessToken {
  const raw = asObject(value, 'AccessToken');
  return {
    accessToken: requiredString(raw, 'AccessToken', 'access_token', 'accessToken'),
    tokenType: optionalString(raw, 'token_type', 'tokenType') ?? 'Bearer',
    // D9's default lifetime when the endpoint does not say.
    expiresIn: optionalNumber(raw, 'expires_in', 'expiresIn') ?? 900,
    scope: optionalString(raw, 'scope') ?? '',
    issuedAt: optionalNumber(raw, 'issued_at', 'issuedAt') ?? issuedAt,
  };
}

export function isTokenExpired(
  token: AccessToken,
  now: number = Date.now(),
  bufferMs: number = TOKEN_EXPIRY_BUFFER_MS,
): boolean {
  return now >= token.issuedAt + token.expiresIn * 1000 - bufferMs;
}

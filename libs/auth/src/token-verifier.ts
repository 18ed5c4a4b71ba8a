import { CALLER_KINDS, CallerKind } from '@agp/contracts';
import {
  JSONWebKeySet,
  JWTPayload,
  JWTVerifyGetKey,
  JWTVerifyOptions,
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
} from 'jose';

import { Principal } from './principal';

export type KeySource = { jwksUrl: string } | { jwks: JSONWebKeySet };

export interface TokenVerifierOptions {
  /** D6: `{base_url}/tenant-auth/v1`. */
  issuer: string;
  keys: KeySource;
  /** D9: 30 s either side. */
  clockToleranceSec?: number;
  /** An unknown `kid` refetches the JWKS at most once per this many ms (a flood of bad kids cannot hammer tenant-auth). */
  jwksCooldownMs?: number;
  /** Verified tokens kept until they expire, so the hot path pays for a signature once per token. */
  cacheSize?: number;
}

export class InvalidTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REQUIRED_CLAIMS = ['iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'jti', 'tid', 'kind'];

/** Every jose option of D9 in one place. */
export function verifyOptions(
  issuer: string,
  audience: string,
  clockToleranceSec: number,
): JWTVerifyOptions {
  return {
    issuer,
    audience,
    algorithms: ['ES256'],
    clockTolerance: clockToleranceSec,
    requiredClaims: REQUIRED_CLAIMS,
  };
}

/** Without this, jose would try the only key of a one-key JWKS on a token with no `kid` (D9). */
export function requireKid(getKey: JWTVerifyGetKey): JWTVerifyGetKey {
  return (header, token) => {
    if (typeof header.kid !== 'string' || header.kid.length === 0) {
      throw new InvalidTokenError('the token names no kid');
    }
    return getKey(header, token);
  };
}

/** The principal of a verified payload; throws when `sub`, `tid` or `kind` are not what D9 says. */
export function principalOf(payload: JWTPayload): Principal {
  const { sub, tid, kind, perms, scope, jti, exp, name, email, aud } = payload as JWTPayload &
    Record<string, unknown>;
  if (typeof sub !== 'string' || !UUID.test(sub)) {
    throw new InvalidTokenError('sub is not an id');
  }
  if (typeof tid !== 'string' || !UUID.test(tid)) {
    throw new InvalidTokenError('tid is not a tenant id');
  }
  if (typeof kind !== 'string' || !(CALLER_KINDS as readonly string[]).includes(kind)) {
    throw new InvalidTokenError('kind is not a caller kind');
  }
  if (perms !== undefined && !(Array.isArray(perms) && perms.every((p) => typeof p === 'string'))) {
    throw new InvalidTokenError('perms is not a list of roles');
  }
  return {
    kind: kind as CallerKind,
    subject: sub,
    tenantId: tid,
    permissions: new Set(perms ?? []),
    scopes: typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [],
    label: typeof name === 'string' ? name : typeof email === 'string' ? email : sub,
    tokenId: String(jti),
    expiresAt: Number(exp),
    audiences: Array.isArray(aud) ? aud.map(String) : typeof aud === 'string' ? [aud] : [],
  };
}

export class TokenVerifier {
  private readonly getKey: JWTVerifyGetKey;
  private readonly cache = new Map<string, Principal>();
  private readonly toleranceSec: number;
  private readonly cacheSize: number;

  constructor(private readonly options: TokenVerifierOptions) {
    this.toleranceSec = options.clockToleranceSec ?? 30;
    this.cacheSize = options.cacheSize ?? 10_000;
    this.getKey = requireKid(
      'jwksUrl' in options.keys
        ? createRemoteJWKSet(new URL(options.keys.jwksUrl), {
            cooldownDuration: options.jwksCooldownMs ?? 5_000,
            cacheMaxAge: 10 * 60_000,
          })
        : createLocalJWKSet(options.keys.jwks),
    );
  }

  async verify(token: string, audience: string): Promise<Principal> {
    const key = `${audience}\n${token}`;
    const cached = this.cache.get(key);
    const nowSec = Date.now() / 1000;
    if (cached && cached.expiresAt + this.toleranceSec > nowSec) {
      return cached;
    }
    this.cache.delete(key);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(
        token,
        this.getKey,
        verifyOptions(this.options.issuer, audience, this.toleranceSec),
      ));
    } catch (error) {
      throw new InvalidTokenError(error instanceof Error ? error.message : 'token rejected');
    }
    const principal = principalOf(payload);
    this.remember(key, principal);
    return principal;
  }

  private remember(key: string, principal: Principal): void {
    if (this.cache.size >= this.cacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) {
        this.cache.delete(oldest);
      }
    }
    this.cache.set(key, principal);
  }
}

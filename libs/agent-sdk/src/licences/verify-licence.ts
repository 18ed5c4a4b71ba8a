import {
  JSONWebKeySet,
  JWTPayload,
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  errors,
  jwtVerify,
} from 'jose';

/** Where the relay puts the licence of a marketplace installation's call (marketplace.md MK27). */
export const LICENCE_HEADER = 'x-agp-licence';

/** The JWS `typ` the platform signs licences with. */
const LICENCE_TYP = 'agp-licence+jwt';

/** D59: what a licence says. */
export interface LicenceClaims {
  jti: string;
  listingId: string;
  /** The installing tenant. */
  tenantId: string;
  installationId: string;
  entitlements: string[];
  iat: number;
  exp: number;
}

/** The reasons the platform's `POST /relay/v1/licences/verify` gives, but `revoked` (online only). */
export type OfflineLicenceReason =
  'missing' | 'malformed' | 'signature' | 'expired' | 'wrong_listing' | 'wrong_tenant';

export type LicenceVerdict =
  | { valid: true; claims: LicenceClaims }
  | { valid: false; reason: OfflineLicenceReason; claims?: LicenceClaims };

export interface LicenceVerifierOptions {
  /** `{base_url}/relay/v1/licences/keys` (no token needed); or `jwks`, a key set already held. */
  jwksUrl?: string | URL;
  jwks?: JSONWebKeySet;
  /** The listing the licence must be for (the agent's own listing). */
  listingId?: string;
  /** The installing tenant the licence must name, when one tenant is expected. */
  tenantId?: string;
  /** How soon an unknown `kid` fetches the key set again (a rotation); default 5 s. */
  cooldownMs?: number;
}

/**
 * MK28: verifies licences offline against the platform's JWKS: signature, `typ`, expiry, listing
 * and tenant. A revocation is known only online (`POST /relay/v1/licences/verify`); the relay
 * refuses a revoked licence's calls before they reach the agent.
 */
export function licenceVerifier(
  options: LicenceVerifierOptions,
): (licence: string | undefined) => Promise<LicenceVerdict> {
  const keys = options.jwks
    ? createLocalJWKSet(options.jwks)
    : createRemoteJWKSet(new URL(String(options.jwksUrl ?? missingKeys())), {
        cooldownDuration: options.cooldownMs ?? 5_000,
      });
  return async (licence) => {
    if (!licence) {
      return { valid: false, reason: 'missing' };
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(licence, keys, {
        algorithms: ['ES256'],
        typ: LICENCE_TYP,
        clockTolerance: 0,
      }));
    } catch (error) {
      return failureOf(error, licence);
    }
    const claims = claimsOf(payload);
    if (!claims) {
      return { valid: false, reason: 'malformed' };
    }
    if (options.listingId !== undefined && claims.listingId !== options.listingId) {
      return { valid: false, reason: 'wrong_listing', claims };
    }
    if (options.tenantId !== undefined && claims.tenantId !== options.tenantId) {
      return { valid: false, reason: 'wrong_tenant', claims };
    }
    return { valid: true, claims };
  };
}

/** One verification; a verifier made once keeps the key set between calls. */
export function verifyLicence(
  licence: string | undefined,
  options: LicenceVerifierOptions,
): Promise<LicenceVerdict> {
  return licenceVerifier(options)(licence);
}

function missingKeys(): never {
  throw new Error('licenceVerifier needs jwksUrl or jwks');
}

function failureOf(error: unknown, licence: string): LicenceVerdict {
  if (error instanceof errors.JWTExpired) {
    const claims = claimsOf(decodeJwt(licence));
    return { valid: false, reason: 'expired', ...(claims ? { claims } : {}) };
  }
  const isSignature =
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JOSEAlgNotAllowed;
  return { valid: false, reason: isSignature ? 'signature' : 'malformed' };
}

function claimsOf(payload: JWTPayload): LicenceClaims | undefined {
  const p = payload as Record<string, unknown>;
  const strings = ['jti', 'listingId', 'tenantId', 'installationId'].every(
    (k) => typeof p[k] === 'string',
  );
  const entitlements =
    Array.isArray(p.entitlements) && p.entitlements.every((e) => typeof e === 'string');
  if (!strings || !entitlements || typeof p.iat !== 'number' || typeof p.exp !== 'number') {
    return undefined;
  }
  return {
    jti: p.jti as string,
    listingId: p.listingId as string,
    tenantId: p.tenantId as string,
    installationId: p.installationId as string,
    entitlements: p.entitlements as string[],
    iat: p.iat,
    exp: p.exp,
  };
}

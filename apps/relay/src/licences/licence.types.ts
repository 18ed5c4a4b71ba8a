/** D59: the claims of a licence (marketplace.md MK20–MK28). */
export interface LicenceClaims {
  /** The licence's id (`jti`): what revocation names. */
  jti: string;
  listingId: string;
  /** The installing tenant. */
  tenantId: string;
  installationId: string;
  entitlements: string[];
  iat: number;
  exp: number;
}

/** Why a licence is not valid (MK24): a stable word a program can branch on. */
export type LicenceInvalidReason =
  'malformed' | 'signature' | 'expired' | 'revoked' | 'wrong_listing' | 'wrong_tenant' | 'missing';

export type LicenceCheck =
  | { valid: true; claims: LicenceClaims }
  | { valid: false; reason: LicenceInvalidReason; claims?: LicenceClaims };

export interface StoredLicence {
  id: string;
  tenantId: string;
  publisherTenantId: string;
  installationId: string;
  listingId: string;
  kid: string;
  token: string;
  entitlements: string[];
  issuedAt: string;
  expiresAt: string;
  revokedAt?: string;
}

/** The JWS `typ` of a licence, so no other token of the platform passes for one. */
export const LICENCE_TYP = 'agp-licence+jwt';
export const LICENCE_KIND = 'MARKETPLACE_LICENCE';

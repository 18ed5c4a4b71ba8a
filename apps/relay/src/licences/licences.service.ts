import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { JWTPayload, decodeJwt, errors, jwtVerify } from 'jose';

import { RELAY_DATABASE } from '../database/tokens';
import { LicenceKeys } from './licence-keys.service';
import { LicencesRepository } from './licences.repository';
import {
  LICENCE_TYP,
  LicenceCheck,
  LicenceClaims,
  LicenceInvalidReason,
  StoredLicence,
} from './licence.types';

/** What a licence is issued for: the installation, its listing's terms. */
export interface LicenceGrant {
  installationId: string;
  listingId: string;
  tenantId: string;
  publisherTenantId: string;
  validitySeconds: number;
  entitlements: string[];
}

/** MK20–MK28: issuing, checking and revoking licences; the HTTP side is LicencesAdmin's. */
@Injectable()
export class Licences {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly keys: LicenceKeys,
    private readonly licences: LicencesRepository,
  ) {}

  /** In the installing (or renewing) transaction: the licence is stored with what made it. */
  async issue(tx: Tx, grant: LicenceGrant): Promise<StoredLicence> {
    // Kept to the millisecond: "the newest licence" must not tie within one second (MK25).
    const issuedAt = new Date();
    const iat = Math.floor(issuedAt.getTime() / 1000);
    const claims: LicenceClaims = {
      jti: randomUUID(),
      listingId: grant.listingId,
      tenantId: grant.tenantId,
      installationId: grant.installationId,
      entitlements: grant.entitlements,
      iat,
      exp: iat + grant.validitySeconds,
    };
    const { kid, token } = await this.keys.sign(tx, { ...claims });
    const stored: StoredLicence = {
      id: claims.jti,
      tenantId: grant.tenantId,
      publisherTenantId: grant.publisherTenantId,
      installationId: grant.installationId,
      listingId: grant.listingId,
      kid,
      token,
      entitlements: grant.entitlements,
      issuedAt: issuedAt.toISOString(),
      expiresAt: new Date(claims.exp * 1000).toISOString(),
    };
    await this.licences.insert(tx, stored);
    return stored;
  }

  /**
   * MK24: signature (a key of the platform's, the licence `typ`), then whose it is, then time,
   * then revocation; the first failure is the reason. `expect` names the listing and tenant the
   * licence must be for.
   */
  async check(
    token: string,
    expect: { listingId?: string; tenantId?: string } = {},
  ): Promise<LicenceCheck> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(
        token,
        async (header) => {
          const key = header.kid ? await this.keys.publicKey(header.kid) : undefined;
          if (!key) {
            throw new errors.JWSSignatureVerificationFailed();
          }
          return key;
        },
        { algorithms: ['ES256'], typ: LICENCE_TYP, clockTolerance: 0 },
      ));
    } catch (error) {
      return failureOf(error, token);
    }
    const claims = claimsOf(payload);
    if (!claims) {
      return { valid: false, reason: 'malformed' };
    }
    const mismatch = mismatchOf(claims, expect);
    if (mismatch) {
      return { valid: false, reason: mismatch, claims };
    }
    const stored = await this.database.asSystem((tx) => this.licences.find(tx, claims.jti));
    if (!stored || stored.revokedAt) {
      return { valid: false, reason: 'revoked', claims };
    }
    return { valid: true, claims };
  }
}

function failureOf(error: unknown, token: string): LicenceCheck {
  if (error instanceof errors.JWTExpired) {
    const claims = claimsOf(decodeJwt(token));
    return { valid: false, reason: 'expired', ...(claims ? { claims } : {}) };
  }
  const reason: LicenceInvalidReason =
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JOSEAlgNotAllowed
      ? 'signature'
      : 'malformed';
  return { valid: false, reason };
}

function mismatchOf(
  claims: LicenceClaims,
  expect: { listingId?: string; tenantId?: string },
): LicenceInvalidReason | undefined {
  if (expect.listingId !== undefined && claims.listingId !== expect.listingId) {
    return 'wrong_listing';
  }
  if (expect.tenantId !== undefined && claims.tenantId !== expect.tenantId) {
    return 'wrong_tenant';
  }
  return undefined;
}

/** The claims D59 names, or undefined when the payload lacks one. */
export function claimsOf(payload: JWTPayload): LicenceClaims | undefined {
  const { jti, listingId, tenantId, installationId, entitlements, iat, exp } = payload as Record<
    string,
    unknown
  >;
  if (
    typeof jti !== 'string' ||
    typeof listingId !== 'string' ||
    typeof tenantId !== 'string' ||
    typeof installationId !== 'string' ||
    !Array.isArray(entitlements) ||
    !entitlements.every((e) => typeof e === 'string') ||
    typeof iat !== 'number' ||
    typeof exp !== 'number'
  ) {
    return undefined;
  }
  return {
    jti,
    listingId,
    tenantId,
    installationId,
    entitlements: entitlements,
    iat,
    exp,
  };
}

import { randomUUID } from 'node:crypto';

import { JSONWebKeySet, KeyLike, SignJWT, exportJWK, generateKeyPair } from 'jose';

import { TrustedSigner } from './forged-tokens';

export const TEST_BASE_URL = 'http://agp.test';

export interface TestTokenClaims {
  tenantId: string;
  subject?: string;
  kind?: 'USER' | 'AGENT' | 'SERVICE';
  perms?: string[];
  scope?: string;
  audience?: string;
  name?: string;
  email?: string;
  expiresInSec?: number;
}

/**
 * Mints valid ES256 tokens for service tests, with the claims of D9, and the JWKS a service's
 * AuthModule verifies them with. Real signatures, real verification: nothing is mocked.
 */
export class TestTokenIssuer {
  private constructor(
    private readonly privateKey: KeyLike,
    readonly jwks: JSONWebKeySet,
    readonly kid: string,
    readonly baseUrl: string,
  ) {}

  static async create(baseUrl = TEST_BASE_URL): Promise<TestTokenIssuer> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const kid = randomUUID();
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
    return new TestTokenIssuer(privateKey, { keys: [jwk] }, kid, baseUrl);
  }

  get issuer(): string {
    return `${this.baseUrl}/tenant-auth/v1`;
  }

  authOptions(): { issuer: string; apiAudience: string; keys: { jwks: JSONWebKeySet } } {
    return { issuer: this.issuer, apiAudience: this.baseUrl, keys: { jwks: this.jwks } };
  }

  /** The trusted key, for the forged-token matrix (`forgedTokenCases`). */
  signer(): TrustedSigner {
    return {
      issuer: this.issuer,
      apiAudience: this.baseUrl,
      kid: this.kid,
      privateKey: this.privateKey,
      publicJwk: this.jwks.keys[0],
    };
  }

  async token(claims: TestTokenClaims): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      tid: claims.tenantId,
      kind: claims.kind ?? 'USER',
      perms: claims.perms ?? [],
      scope: claims.scope ?? 'svc:api',
      ...(claims.name ? { name: claims.name } : {}),
      ...(claims.email ? { email: claims.email } : {}),
    })
      .setProtectedHeader({ alg: 'ES256', kid: this.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(claims.subject ?? randomUUID())
      .setAudience(claims.audience ?? this.baseUrl)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + (claims.expiresInSec ?? 900))
      .setJti(randomUUID())
      .sign(this.privateKey);
  }
}

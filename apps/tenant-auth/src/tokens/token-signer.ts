import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { CallerKind, Scope } from '@agp/contracts';
import { apiAudience, tokenIssuer } from '@agp/config';
import { SignJWT } from 'jose';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { SigningKeysService } from '../keys/signing-keys.service';

export interface TokenSubject {
  kind: CallerKind;
  subject: string;
  tenantId: string;
  perms: string[];
  name?: string;
  email?: string;
}

export interface IdTokenClaims {
  subject: string;
  tenantId: string;
  clientId: string;
  nonce: string | null;
  authTime: Date;
  sessionId: string;
  name: string;
  email: string;
}

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: Scope;
}

/** D8, D9: the claims every token carries, signed ES256 with the active key's `kid`. */
@Injectable()
export class TokenSigner {
  private readonly issuer: string;
  private readonly apiAudience: string;

  constructor(
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    private readonly keys: SigningKeysService,
  ) {
    this.issuer = tokenIssuer(env);
    this.apiAudience = apiAudience(env);
  }

  audienceOf(scope: Scope): string {
    return scope === 'mcp:call' ? `${this.apiAudience}/relay` : this.apiAudience;
  }

  /** `resource` (identity.md I22, RFC 8707). */
  async issue(who: TokenSubject, scope: Scope, resource?: string): Promise<IssuedToken> {
    const key = await this.keys.activeKey();
    const now = Math.floor(Date.now() / 1000);
    const ttl = this.env.TOKEN_TTL_SEC;
    const token = await new SignJWT({
      tid: who.tenantId,
      kind: who.kind,
      scope,
      perms: who.perms,
      ...(who.name ? { name: who.name } : {}),
      ...(who.email ? { email: who.email } : {}),
    })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(who.subject)
      .setAudience(resource ? [this.audienceOf(scope), resource] : this.audienceOf(scope))
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + ttl)
      .setJti(randomUUID())
      .sign(key.privateKey);
    return { access_token: token, token_type: 'Bearer', expires_in: ttl, scope };
  }

  /** OpenID Connect Core §2: the ID token of a browser sign-in, signed by the same key (one JWKS). */
  async issueIdToken(claims: IdTokenClaims): Promise<string> {
    const key = await this.keys.activeKey();
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      tid: claims.tenantId,
      name: claims.name,
      email: claims.email,
      sid: claims.sessionId,
      auth_time: Math.floor(claims.authTime.getTime() / 1000),
      ...(claims.nonce ? { nonce: claims.nonce } : {}),
    })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(claims.subject)
      .setAudience(claims.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + this.env.TOKEN_TTL_SEC)
      .sign(key.privateKey);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { LocalUsers } from '../tokens/local-users';
import { OAuthError } from '../tokens/oauth.error';
import { TokenParams, required } from '../tokens/token-request';
import { TokenSigner } from '../tokens/token-signer';
import { OAuthClients } from '../mcp-clients/oauth-clients';
import { BrowserClient } from './browser-clients';
import { hashHandle, newHandle } from './handles';
import { isPkceVerifierRight } from './pkce';
import { SignInRepository } from './sign-in.repository';

export interface BrowserTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

interface Grantee {
  tenantId: string;
  userId: string;
  clientId: string;
  scope: string;
  sessionId: string | null;
  /** I22: the one MCP server a person's own client's tokens are for; null for the console. */
  resource: string | null;
}

const REFRESH_PREFIX = 'agp_rt_';

/** The token endpoint's browser grants (identity.md I14, I16, D8, D9). */
@Injectable()
export class CodeGrants {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    private readonly repository: SignInRepository,
    private readonly localUsers: LocalUsers,
    private readonly signer: TokenSigner,
    private readonly clients: OAuthClients,
  ) {}

  async authorizationCode(params: TokenParams): Promise<BrowserTokens> {
    const client = await this.client(params);
    const code = required(params, 'code');
    const redirectUri = required(params, 'redirect_uri');
    const verifier = required(params, 'code_verifier');
    const answer = await this.database.asSystem(async (tx) => {
      const row = await this.repository.consumeCode(tx, hashHandle(code));
      if (row?.wasConsumed) {
        // RFC 6749 §4.1.2: a code used twice revokes what the first use was given.
        await this.repository.revokeFamily(tx, row.requestId);
      }
      return row;
    });
    if (!answer || answer.wasConsumed || answer.hasExpired || answer.clientId !== client.id) {
      throw new OAuthError('invalid_grant', 'the code is unknown, used or expired');
    }
    if (answer.redirectUri !== redirectUri) {
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
    }
    if (!isPkceVerifierRight(verifier, answer.codeChallenge)) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    }
    checkResource(params, answer.resource);
    const tokens = await this.issue(
      { ...answer, clientId: client.id },
      answer.requestId,
      new Date(Date.now() + this.env.REFRESH_TOKEN_TTL_SEC * 1000),
    );
    if (!answer.scope.split(' ').includes('openid')) {
      return tokens;
    }
    const user = await this.localUsers.current(answer.tenantId, answer.userId);
    tokens.id_token = await this.signer.issueIdToken({
      subject: answer.userId,
      tenantId: answer.tenantId,
      clientId: client.id,
      nonce: answer.nonce,
      authTime: answer.authTime,
      sessionId: answer.sessionId,
      name: user?.displayName ?? '',
      email: user?.email ?? '',
    });
    return tokens;
  }

  /** I16: each refresh token works once; a second use revokes its whole family. */
  async refreshToken(params: TokenParams): Promise<BrowserTokens> {
    const client = await this.client(params);
    const token = required(params, 'refresh_token');
    const row = await this.database.asSystem(async (tx) => {
      const found = await this.repository.rotateRefresh(tx, hashHandle(token));
      if (found?.wasRotated) {
        await this.repository.revokeFamily(tx, found.familyId);
      }
      return found;
    });
    if (!row || row.wasRotated || row.clientId !== client.id) {
      throw new OAuthError('invalid_grant', 'the refresh token is unknown, used or expired');
    }
    checkResource(params, row.resource);
    return this.issue(row, row.familyId, row.expiresAt);
  }

  private async client(params: TokenParams): Promise<BrowserClient> {
    const found = await this.clients.find(required(params, 'client_id'));
    if (!('client' in found)) {
      throw new OAuthError('invalid_client', 'client authentication failed');
    }
    return found.client;
  }

  private async issue(who: Grantee, familyId: string, familyEnd: Date): Promise<BrowserTokens> {
    const user = await this.localUsers.current(who.tenantId, who.userId);
    if (!user) {
      await this.database.asSystem((tx) => this.repository.revokeFamily(tx, familyId));
      throw new OAuthError('invalid_grant', 'the user or tenant is no longer active');
    }
    // I22: a person's MCP client gets an `mcp:call` token for the relay and its one server.
    const access = await this.signer.issue(
      {
        kind: 'USER',
        subject: user.userId,
        tenantId: user.tenantId,
        perms: user.perms,
        name: user.displayName,
        email: user.email,
      },
      who.resource ? 'mcp:call' : 'svc:api',
      who.resource ?? undefined,
    );
    const tokens: BrowserTokens = { ...access, scope: who.scope };
    if (who.scope.split(' ').includes('offline_access')) {
      const refresh = newHandle(REFRESH_PREFIX);
      await this.database.asSystem((tx) =>
        this.repository.insertRefresh(tx, hashHandle(refresh), {
          familyId,
          sessionId: who.sessionId,
          tenantId: who.tenantId,
          userId: who.userId,
          clientId: who.clientId,
          scope: who.scope,
          resource: who.resource,
          expiresAt: familyEnd,
        }),
      );
      tokens.refresh_token = refresh;
    }
    return tokens;
  }
}

/** RFC 8707 §2.2: a token request may name the resource again. */
function checkResource(params: TokenParams, granted: string | null): void {
  const asked = params.resource;
  if (asked === undefined || asked === '') {
    return;
  }
  if (asked !== granted) {
    throw new OAuthError('invalid_target', 'the grant is not for this resource');
  }
}

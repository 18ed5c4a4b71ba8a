import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { HttpProblem } from '@agp/http';

import { ClientsRepository } from '../clients/clients.repository';
import { BrowserTokens, CodeGrants } from '../sign-in/code-grants';
import { verifyClientSecret } from '../common/credentials';
import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { TenantsRepository } from '../tenants/tenants.repository';
import { LocalUsers } from './local-users';
import { OAuthError } from './oauth.error';
import { scopeOf } from './scopes';
import { TokenRateLimiter } from './token-rate-limiter';
import {
  TokenParams,
  TokenRequest,
  clientCredentialsOf,
  paramsOf,
  required,
} from './token-request';
import { IssuedToken, TokenSigner } from './token-signer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BAD_CLIENT = 'client authentication failed';
const BAD_USER = 'the user name, password or tenant is wrong';

/** D7: the token endpoint's grants; the browser ones (I14, I16) are CodeGrants'. */
@Injectable()
export class TokenService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    private readonly clients: ClientsRepository,
    private readonly tenants: TenantsRepository,
    private readonly localUsers: LocalUsers,
    private readonly limiter: TokenRateLimiter,
    private readonly signer: TokenSigner,
    private readonly codeGrants: CodeGrants,
  ) {}

  async token(request: TokenRequest): Promise<IssuedToken | BrowserTokens> {
    const params = paramsOf(request.body);
    const grant = required(params, 'grant_type');
    switch (grant) {
      case 'client_credentials':
        return this.clientCredentials(params, request);
      case 'password':
        return this.password(params, request);
      case 'authorization_code':
        return this.codeGrants.authorizationCode(params);
      case 'refresh_token':
        return this.codeGrants.refreshToken(params);
      default:
        throw new OAuthError('unsupported_grant_type', `grant type ${grant} is not supported`);
    }
  }

  // Agents and service accounts. An unknown client, a wrong secret, a suspended client and a
  // suspended tenant all answer the same invalid_client, after the same work.
  private async clientCredentials(
    params: TokenParams,
    request: TokenRequest,
  ): Promise<IssuedToken> {
    const { clientId, clientSecret } = clientCredentialsOf(params, request.authorization);
    const scope = scopeOf(params.scope);
    // One transaction: the rate count and the look-up (the count commits whatever the outcome).
    const found = await this.database.asSystem(async (tx) => {
      const limited = await this.limit(tx, `client:${clientId}`, request.address);
      if (limited || !UUID.test(clientId)) {
        return { limited };
      }
      const client = await this.clients.findForToken(tx, clientId);
      return { client, tenant: client ? await this.tenants.findById(tx, client.tenantId) : null };
    });
    if (found.limited) {
      throw found.limited;
    }
    const { client, tenant } = found;
    const isSecretRight = verifyClientSecret(clientSecret, client?.secretHash);
    if (!client || !isSecretRight || client.status !== 'ACTIVE' || tenant?.status !== 'ACTIVE') {
      throw new OAuthError('invalid_client', BAD_CLIENT);
    }
    return this.signer.issue(
      {
        kind: client.kind,
        subject: client.id,
        tenantId: client.tenantId,
        perms: client.permissions,
        name: client.name,
      },
      scope,
    );
  }

  /** Local users: username = e-mail, plus `tenant` = slug or id (D7). */
  private async password(params: TokenParams, request: TokenRequest): Promise<IssuedToken> {
    const username = required(params, 'username');
    const password = required(params, 'password');
    const tenantRef = required(params, 'tenant');
    const scope = scopeOf(params.scope);
    const answer = await this.localUsers.signIn(tenantRef, username, password, request.address);
    if (answer.kind === 'limited') {
      throw answer.problem;
    }
    if (answer.kind === 'refused') {
      throw new OAuthError('invalid_grant', BAD_USER);
    }
    const user = await this.localUsers.current(answer.user.tenantId, answer.user.userId);
    if (!user) {
      throw new OAuthError('invalid_grant', BAD_USER);
    }
    return this.signer.issue(
      {
        kind: 'USER',
        subject: user.userId,
        tenantId: user.tenantId,
        perms: user.perms,
        name: user.displayName,
        email: user.email,
      },
      scope,
    );
  }

  private limit(tx: Tx, clientKey: string, address: string): Promise<HttpProblem | undefined> {
    return this.limiter.count(tx, [
      { key: clientKey, limit: this.env.TOKEN_RATE_LIMIT_PER_CLIENT },
      { key: `address:${address}`, limit: this.env.TOKEN_RATE_LIMIT_PER_ADDRESS },
    ]);
  }
}

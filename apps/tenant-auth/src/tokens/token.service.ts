import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { ClientsRepository } from '../clients/clients.repository';
import { verifyClientSecret, verifyPassword } from '../common/credentials';
import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { TenantsRepository } from '../tenants/tenants.repository';
import { UsersRepository } from '../users/users.repository';
import { OAuthError } from './oauth.error';
import { scopeOf } from './scopes';
import { TokenRateLimiter } from './token-rate-limiter';
import { TokenParams, TokenRequest, clientCredentialsOf, paramsOf, required } from './token-request';
import { IssuedToken, TokenSigner } from './token-signer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BAD_CLIENT = 'client authentication failed';
const BAD_USER = 'the user name, password or tenant is wrong';

/** D7: the token endpoint's two grants. */
@Injectable()
export class TokenService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    private readonly clients: ClientsRepository,
    private readonly tenants: TenantsRepository,
    private readonly users: UsersRepository,
    private readonly limiter: TokenRateLimiter,
    private readonly signer: TokenSigner,
  ) {}

  async token(request: TokenRequest): Promise<IssuedToken> {
    const params = paramsOf(request.body);
    const grant = required(params, 'grant_type');
    switch (grant) {
      case 'client_credentials':
        return this.clientCredentials(params, request);
      case 'password':
        return this.password(params, request);
      default:
        throw new OAuthError('unsupported_grant_type', `grant type ${grant} is not supported`);
    }
  }

  /**
   * Agents and service accounts. An unknown client, a wrong secret, a suspended client and a
   * suspended tenant all answer the same invalid_client, after the same work.
   */
  private async clientCredentials(params: TokenParams, request: TokenRequest): Promise<IssuedToken> {
    const { clientId, clientSecret } = clientCredentialsOf(params, request.authorization);
    const scope = scopeOf(params.scope);
    await this.limit(`client:${clientId}`, request.address);
    const found = UUID.test(clientId)
      ? await this.database.asSystem(async (tx) => {
          const client = await this.clients.findForToken(tx, clientId);
          return client ? { client, tenant: await this.tenants.findById(tx, client.tenantId) } : undefined;
        })
      : undefined;
    const isSecretRight = verifyClientSecret(clientSecret, found?.client.secretHash);
    if (!found || !isSecretRight || found.client.status !== 'ACTIVE' || found.tenant?.status !== 'ACTIVE') {
      throw new OAuthError('invalid_client', BAD_CLIENT);
    }
    const { client } = found;
    return this.signer.issue(
      { kind: client.kind, subject: client.id, tenantId: client.tenantId, perms: client.permissions, name: client.name },
      scope,
    );
  }

  /** Local users: username = e-mail, plus `tenant` = slug or id (D7). */
  private async password(params: TokenParams, request: TokenRequest): Promise<IssuedToken> {
    const username = required(params, 'username').toLowerCase();
    const password = required(params, 'password');
    const tenantRef = required(params, 'tenant').toLowerCase();
    const scope = scopeOf(params.scope);
    await this.limit(`user:${tenantRef}/${username}`, request.address);
    const tenant = await this.database.asSystem((tx) => this.tenants.findBySlugOrId(tx, tenantRef));
    const found = tenant
      ? await this.database.inTenant(tenant.id, async (tx) => {
          const user = await this.users.findByEmail(tx, tenant.id, username);
          return user ? { user, perms: await this.users.permissionsOf(tx, tenant.id, user.id) } : undefined;
        })
      : undefined;
    const isPasswordRight = await verifyPassword(password, found?.user.passwordHash);
    if (!tenant || !found || !isPasswordRight || found.user.status !== 'ACTIVE' || tenant.status !== 'ACTIVE') {
      throw new OAuthError('invalid_grant', BAD_USER);
    }
    const { user, perms } = found;
    return this.signer.issue(
      { kind: 'USER', subject: user.id, tenantId: tenant.id, perms, name: user.displayName, email: user.email },
      scope,
    );
  }

  private limit(clientKey: string, address: string): Promise<void> {
    return this.limiter.hit([
      { key: clientKey, limit: this.env.TOKEN_RATE_LIMIT_PER_CLIENT },
      { key: `address:${address}`, limit: this.env.TOKEN_RATE_LIMIT_PER_ADDRESS },
    ]);
  }
}

import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import * as oidc from 'openid-client';
import { Logger } from 'pino';
import { SecretSealer } from '@agp/sealing';

import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { GroupsRepository } from '../groups/groups.repository';
import { IdentityProvider } from '../identity-providers/identity-provider.types';
import { IdentityProvidersRepository } from '../identity-providers/identity-providers.repository';
import { SECRET_SEALER } from '../keys/signing-keys.service';
import { TenantsRepository } from '../tenants/tenants.repository';
import { User } from '../users/user.types';
import { UsersRepository } from '../users/users.repository';
import { REQUEST_COOKIE, isLoopbackUrl, readCookie } from './cookies';
import { UpstreamClaims, groupChanges, readUpstreamClaims } from './upstream-claims';
import { SignInRepository } from './sign-in.repository';
import { SignInService, textFields } from './sign-in.service';
import { BrowserRequest, SignInOutcome } from './sign-in.types';

/** I17: Google's issuer is fixed; Okta's and Entra's are the tenant's own (config.issuer). */
const FIXED_ISSUERS: Partial<Record<IdentityProvider['type'], string>> = {
  GOOGLE_WORKSPACE: 'https://accounts.google.com',
};
/** Okta answers `groups` only when asked for the scope; the others ignore scopes they do not know. */
const SCOPES: Record<IdentityProvider['type'], string> = {
  GOOGLE_WORKSPACE: 'openid email profile',
  MICROSOFT_ENTRA_ID: 'openid email profile',
  OKTA: 'openid email profile groups',
};

// Sign-in through a tenant's identity provider (D26, D29; identity.md I17), with openid-client as
// the relying party: authorization code with PKCE, state and nonce checked by the library, the user
// created or updated from the ID token's claims, mapped groups applied, and only e-mail addresses
// of the tenant's verified domains let in.
@Injectable()
export class FederationService {
  /** Discovery documents, per provider version (a changed provider is discovered again). */
  private readonly configurations = new Map<string, Promise<oidc.Configuration>>();

  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(SECRET_SEALER) private readonly sealer: SecretSealer,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly signIn: SignInService,
    private readonly repository: SignInRepository,
    private readonly tenants: TenantsRepository,
    private readonly providers: IdentityProvidersRepository,
    private readonly users: UsersRepository,
    private readonly groups: GroupsRepository,
  ) {}

  /** POST /oauth/authorize/federated: the provider that signs in this e-mail's domain. */
  async start(request: BrowserRequest): Promise<SignInOutcome> {
    const fields = textFields(request.fields, ['request', 'tenant', 'email']);
    const open = await this.signIn.openRequest(request.cookieHeader, fields.request);
    if (!open) {
      return this.signIn.expired();
    }
    const domain = fields.email.split('@')[1]?.toLowerCase() ?? '';
    const provider = await this.database.asSystem(async (tx) => {
      const tenant = await this.tenants.findBySlugOrId(tx, fields.tenant.toLowerCase());
      if (tenant?.status !== 'ACTIVE' || !domain) {
        return null;
      }
      const all = await this.providers.list(tx, tenant.id);
      return all.find((p) => p.enabled && verifiedDomain(p, domain)) ?? null;
    });
    if (!provider) {
      return this.signIn.signInPage(
        400,
        open.id,
        fields.tenant,
        fields.email,
        'This organisation has no identity provider for that e-mail address.',
      );
    }
    let config: oidc.Configuration;
    try {
      config = await this.configuration(provider);
    } catch (error) {
      this.logger.warn(
        { err: error, identityProviderId: provider.id },
        'identity provider discovery failed',
      );
      return this.signIn.message(
        502,
        'Identity provider unreachable',
        'Your identity provider could not be reached. Try again later.',
      );
    }
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const leg = {
      providerId: provider.id,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier,
    };
    await this.database.asSystem((tx) => this.repository.setUpstream(tx, open.id, leg));
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: provider.redirectUri!,
      scope: SCOPES[provider.type],
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: leg.state,
      nonce: leg.nonce,
      login_hint: fields.email,
    });
    return { kind: 'redirect', location: url.toString(), cookies: [] };
  }

  /** GET /identity-providers/{id}/callback: back from the provider. */
  async callback(
    providerId: string,
    rawQuery: string,
    request: BrowserRequest,
  ): Promise<SignInOutcome> {
    // The request this browser started is named by its own cookie: a code delivered to another
    // browser (login CSRF, a stolen callback URL) finds no request to finish.
    const requestId = readCookie(request.cookieHeader, REQUEST_COOKIE) ?? '';
    const open = await this.signIn.openRequest(request.cookieHeader, requestId);
    const leg = open?.upstream;
    if (!open || !leg || leg.providerId !== providerId) {
      return this.signIn.expired();
    }
    const provider = await this.database.asSystem((tx) =>
      this.providers.findEnabled(tx, providerId),
    );
    if (!provider) {
      return this.signIn.expired();
    }
    let claims: UpstreamClaims;
    try {
      const config = await this.configuration(provider);
      const currentUrl = new URL(provider.redirectUri!);
      currentUrl.search = rawQuery;
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: leg.codeVerifier,
        expectedState: leg.state,
        expectedNonce: leg.nonce,
        idTokenExpected: true,
      });
      claims = readUpstreamClaims(tokens.claims());
    } catch (error) {
      this.logger.warn(
        { err: error, identityProviderId: provider.id },
        'identity provider sign-in failed',
      );
      return this.signIn.message(
        401,
        'Sign-in failed',
        'Your identity provider did not confirm the sign-in. Go back to the console and try again.',
      );
    }
    const domain = claims.email.split('@')[1]?.toLowerCase() ?? '';
    if (!claims.isEmailVerified || !verifiedDomain(provider, domain)) {
      return this.signIn.message(
        403,
        'Sign-in refused',
        `Addresses of ${domain || 'that domain'} do not sign in to this organisation.`,
      );
    }
    const user = await this.upsertUser(provider, claims);
    if (!user) {
      return this.signIn.message(
        403,
        'Sign-in refused',
        'Your account in this organisation is disabled.',
      );
    }
    return this.signIn.complete(open.id, {
      tenantId: provider.tenantId,
      userId: user.id,
      identityProviderId: provider.id,
    });
  }

  /** The user of these claims, created or renamed, with D29's mapped groups applied; null if disabled. */
  private upsertUser(provider: IdentityProvider, claims: UpstreamClaims): Promise<User | null> {
    const tenantId = provider.tenantId;
    return this.database.inTenant(tenantId, async (tx) => {
      const tenant = await this.tenants.findById(tx, tenantId);
      if (tenant?.status !== 'ACTIVE') {
        return null;
      }
      let user = await this.users.findByEmail(tx, tenantId, claims.email);
      if (user?.status === 'DISABLED') {
        return null;
      }
      user = await this.users.save(
        tx,
        user
          ? { ...user, displayName: claims.name }
          : {
              id: randomUUID(),
              tenantId,
              email: claims.email,
              displayName: claims.name,
              passwordHash: null,
              status: 'ACTIVE',
              roleIds: [],
            },
      );
      const mapped = Object.values(provider.groupMappings).flat();
      const existing = await this.groups.existingIds(tx, tenantId, [...new Set(mapped)]);
      const { add, remove } = groupChanges(provider.groupMappings, claims.groups, existing);
      for (const groupId of add) {
        await this.groups.addMember(tx, tenantId, groupId, user.id);
      }
      for (const groupId of remove) {
        await this.groups.removeMember(tx, tenantId, groupId, user.id);
      }
      return user;
    });
  }

  private configuration(provider: IdentityProvider): Promise<oidc.Configuration> {
    const key = `${provider.id}:${provider.updatedAt.toISOString()}`;
    let config = this.configurations.get(key);
    if (!config) {
      const issuer = provider.issuerUrl ?? FIXED_ISSUERS[provider.type];
      if (!issuer) {
        return Promise.reject(new Error(`identity provider ${provider.id} has no issuer`));
      }
      const secret = provider.clientSecretSealed
        ? this.sealer.decrypt(provider.clientSecretSealed)
        : undefined;
      // Plain http only to a provider on this machine (development and tests); https elsewhere.
      const options = isLoopbackUrl(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined;
      config = oidc.discovery(new URL(issuer), provider.clientId, secret, undefined, options);
      config.catch(() => this.configurations.delete(key));
      this.configurations.set(key, config);
    }
    return config;
  }
}

function verifiedDomain(provider: IdentityProvider, domain: string): boolean {
  return provider.emailDomains.some((d) => d.domain === domain && d.verifiedAt !== null);
}

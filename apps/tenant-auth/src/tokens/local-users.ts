import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { HttpProblem } from '@agp/http';

import { verifyPassword } from '../common/credentials';
import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { TenantsRepository } from '../tenants/tenants.repository';
import { UsersRepository } from '../users/users.repository';
import { TokenRateLimiter } from './token-rate-limiter';

export interface LocalUser {
  tenantId: string;
  userId: string;
  email: string;
  displayName: string;
}

export type LocalSignIn =
  | { kind: 'signed-in'; user: LocalUser }
  | { kind: 'refused' }
  | { kind: 'limited'; problem: HttpProblem };

// A local user's password check, shared by the password grant (D7) and the sign-in page: rate
// limited (I6), and an unknown tenant, unknown user, wrong password, disabled user or suspended
// tenant all answer the same refusal after the same work (I5).
@Injectable()
export class LocalUsers {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    private readonly tenants: TenantsRepository,
    private readonly users: UsersRepository,
    private readonly limiter: TokenRateLimiter,
  ) {}

  async signIn(
    tenantRef: string,
    email: string,
    password: string,
    address: string,
  ): Promise<LocalSignIn> {
    const username = email.toLowerCase();
    const tenantKey = tenantRef.toLowerCase();
    const found = await this.database.asSystem(async (tx) => {
      const limited = await this.limiter.count(tx, [
        { key: `user:${tenantKey}/${username}`, limit: this.env.TOKEN_RATE_LIMIT_PER_CLIENT },
        { key: `address:${address}`, limit: this.env.TOKEN_RATE_LIMIT_PER_ADDRESS },
      ]);
      const tenant = limited ? null : await this.tenants.findBySlugOrId(tx, tenantKey);
      const user = tenant ? await this.users.findByEmail(tx, tenant.id, username) : null;
      return { limited, tenant, user };
    });
    if (found.limited) {
      return { kind: 'limited', problem: found.limited };
    }
    const { tenant, user } = found;
    const isPasswordRight = await verifyPassword(password, user?.passwordHash);
    if (
      !tenant ||
      !user ||
      !isPasswordRight ||
      user.status !== 'ACTIVE' ||
      tenant.status !== 'ACTIVE'
    ) {
      return { kind: 'refused' };
    }
    return {
      kind: 'signed-in',
      user: {
        tenantId: tenant.id,
        userId: user.id,
        email: user.email,
        displayName: user.displayName,
      },
    };
  }

  // A signed-in user as tokens describe them now (I2: a disabled user or suspended tenant gets
  // nothing more, whatever session or refresh token they hold); null when they may not.
  async current(
    tenantId: string,
    userId: string,
  ): Promise<(LocalUser & { perms: string[] }) | null> {
    return this.database.asSystem(async (tx) => {
      const tenant = await this.tenants.findById(tx, tenantId);
      const user = await this.users.findById(tx, tenantId, userId);
      if (tenant?.status !== 'ACTIVE' || user?.status !== 'ACTIVE') {
        return null;
      }
      return {
        tenantId,
        userId,
        email: user.email,
        displayName: user.displayName,
        perms: await this.users.permissionsOf(tx, tenantId, userId),
      };
    });
  }
}

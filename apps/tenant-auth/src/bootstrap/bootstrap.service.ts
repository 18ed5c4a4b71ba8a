import { Inject, Injectable } from '@nestjs/common';
import { tokenIssuer } from '@agp/config';
import { Database } from '@agp/database';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { TenantProvisioner } from '../tenants/tenant-provisioner';
import { TenantsRepository } from '../tenants/tenants.repository';

export interface BootstrapInput {
  slug: string;
  name?: string;
  email: string;
  displayName?: string;
  password?: string;
}

export interface BootstrapResult {
  tenantId: string;
  tenant: string;
  email: string;
  password: string;
  tokenUrl: string;
  isOperator: boolean;
}

/** D11: a tenant and its first administrator; the first tenant ever is the operator (identity.md I3). */
@Injectable()
export class BootstrapService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    private readonly tenants: TenantsRepository,
    private readonly provisioner: TenantProvisioner,
  ) {}

  async hasTenants(): Promise<boolean> {
    return (await this.database.asSystem((tx) => this.tenants.count(tx))) > 0;
  }

  bootstrap(input: BootstrapInput): Promise<BootstrapResult> {
    return this.database.asSystem(async (tx) => {
      await this.tenants.lockBootstrap(tx);
      const isOperator = (await this.tenants.count(tx)) === 0;
      const { tenant, admin } = await this.provisioner.provision(
        tx,
        {
          slug: input.slug,
          name: input.name ?? input.slug,
          adminEmail: input.email,
          adminDisplayName: input.displayName,
          adminPassword: input.password,
          isOperator,
        },
        { type: 'SYSTEM', label: 'bootstrap' },
        `bootstrap-${input.slug}`,
      );
      return {
        tenantId: tenant.id,
        tenant: tenant.slug,
        email: admin.email,
        password: admin.password,
        tokenUrl: `${tokenIssuer(this.env)}/oauth/token`,
        isOperator,
      };
    });
  }
}

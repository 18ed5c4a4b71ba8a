import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { EventParty, PERMISSION_ENTITIES } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { hashPassword, newPassword } from '../common/credentials';
import { TENANT_AUTH_OUTBOX } from '../database/tokens';
import { RolesRepository } from '../roles/roles.repository';
import { userLifecycleData } from '../users/user-lifecycle';
import { UsersRepository } from '../users/users.repository';
import { Tenant } from './tenant.types';
import { TenantsRepository } from './tenants.repository';

export interface ProvisionInput {
  slug: string;
  name: string;
  adminEmail: string;
  adminDisplayName?: string;
  adminPassword?: string;
  isOperator: boolean;
}

export interface Provisioned {
  tenant: Tenant;
  admin: { id: string; email: string; password: string };
}

/** D11: every entity ADMIN. */
export const ADMINISTRATOR_PERMISSIONS = PERMISSION_ENTITIES.map((entity) => `${entity}:ADMIN`);

/** A tenant with its first administrator (D11): used by POST /tenants, the bootstrap command and the embedded first start. */
@Injectable()
export class TenantProvisioner {
  constructor(
    @Inject(TENANT_AUTH_OUTBOX) private readonly outbox: EventOutbox,
    private readonly tenants: TenantsRepository,
    private readonly roles: RolesRepository,
    private readonly users: UsersRepository,
  ) {}

  /** Runs in the caller's system-scope transaction; TENANT_LIFECYCLE CREATED goes out with it. */
  async provision(
    tx: Tx,
    input: ProvisionInput,
    actor: EventParty,
    correlationId: string,
  ): Promise<Provisioned> {
    const password = input.adminPassword ?? newPassword();
    const passwordHash = await hashPassword(password);
    const tenant = await this.tenants.save(tx, {
      id: randomUUID(),
      slug: input.slug,
      name: input.name,
      status: 'ACTIVE',
      isOperator: input.isOperator,
    });
    const role = await this.roles.save(tx, {
      id: randomUUID(),
      tenantId: tenant.id,
      name: 'Administrators',
      description: 'Every entity, ADMIN (D11)',
      permissions: ADMINISTRATOR_PERMISSIONS,
    });
    const admin = await this.users.save(tx, {
      id: randomUUID(),
      tenantId: tenant.id,
      email: input.adminEmail.toLowerCase(),
      displayName: input.adminDisplayName ?? input.adminEmail,
      passwordHash,
      status: 'ACTIVE',
      roleIds: [role.id],
    });
    await this.outbox.add(
      tx,
      'USER_LIFECYCLE',
      { tenantId: tenant.id, correlationId },
      userLifecycleData(admin, 'CREATED', actor),
    );
    await this.outbox.add(
      tx,
      'TENANT_LIFECYCLE',
      { tenantId: tenant.id, correlationId },
      {
        actor,
        tenantId: tenant.id,
        slug: tenant.slug,
        change: 'CREATED',
        status: tenant.status,
        revision: tenant.revision,
        summary: `tenant ${tenant.slug} created with administrator ${admin.email}`,
      },
    );
    return { tenant, admin: { id: admin.id, email: admin.email, password } };
  }
}

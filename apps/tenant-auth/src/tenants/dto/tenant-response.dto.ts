import { TenantStatus } from '@agp/contracts';

import { Tenant } from '../tenant.types';

export class TenantResponseDto {
  id: string;
  slug: string;
  name: string;
  status: TenantStatus;
  isOperator: boolean;
  createdAt: string;
  updatedAt: string;

  static of(tenant: Tenant): TenantResponseDto {
    return {
      id: tenant.id,
      slug: tenant.slug,
      name: tenant.name,
      status: tenant.status,
      isOperator: tenant.isOperator,
      createdAt: tenant.createdAt.toISOString(),
      updatedAt: tenant.updatedAt.toISOString(),
    };
  }
}

/** POST /tenants: the new tenant and, this once, its administrator's credentials. */
export class CreatedTenantResponseDto extends TenantResponseDto {
  initialAdministrator: { id: string; email: string; password: string };
}

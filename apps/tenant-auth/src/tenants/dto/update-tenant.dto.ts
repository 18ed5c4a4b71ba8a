import { IsIn, IsOptional } from 'class-validator';
import { TENANT_STATUSES, TenantStatus } from '@agp/contracts';
import { PatchType, PickType } from '@agp/http';

import { CreateTenantDto } from './create-tenant.dto';

/** A partial update (D12): the name (`null` is a 400) and the status. */
export class UpdateTenantDto extends PatchType(PickType(CreateTenantDto, ['name'] as const)) {
  /** SUSPENDED stops every token of the tenant at once (identity.md I2); operator only. */
  @IsOptional()
  @IsIn(TENANT_STATUSES)
  status?: TenantStatus;
}

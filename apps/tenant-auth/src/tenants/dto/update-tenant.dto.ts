import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { TENANT_STATUSES, TenantStatus } from '@agp/contracts';

export class UpdateTenantDto {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  /** SUSPENDED stops every token of the tenant at once (identity.md I2); operator only. */
  @IsOptional()
  @IsIn(TENANT_STATUSES)
  status?: TenantStatus;
}

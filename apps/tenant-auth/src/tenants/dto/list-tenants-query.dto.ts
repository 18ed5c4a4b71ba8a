import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { TENANT_STATUSES, TenantStatus } from '@agp/contracts';
import { PageQueryDto } from '@agp/http';

export class ListTenantsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(TENANT_STATUSES)
  status?: TenantStatus;

  /** Part of the slug or name. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}

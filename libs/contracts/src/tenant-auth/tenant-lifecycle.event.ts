import { IsIn, IsInt, IsOptional, IsString, IsUUID, MaxLength, Min } from 'class-validator';

import { TENANT_STATUSES, TenantStatus } from '../enums/identity';
import { AuditableEventData } from '../events/auditable-event.data';

export const TENANT_LIFECYCLE_CHANGES = [
  'CREATED',
  'UPDATED',
  'SUSPENDED',
  'ACTIVATED',
  'DELETED',
] as const;

export class TenantLifecycleData extends AuditableEventData {
  @IsUUID()
  tenantId: string;

  @IsString()
  @MaxLength(100)
  slug: string;

  @IsIn(TENANT_LIFECYCLE_CHANGES)
  change: (typeof TENANT_LIFECYCLE_CHANGES)[number];

  /** The tenant's status after the change: an UPDATED event says whether it is still suspended. */
  @IsOptional()
  @IsIn(TENANT_STATUSES)
  status?: TenantStatus;

  /** The owner's revision of the identity after this change (issue 30). */
  @IsOptional()
  @IsInt()
  @Min(1)
  revision?: number;
}

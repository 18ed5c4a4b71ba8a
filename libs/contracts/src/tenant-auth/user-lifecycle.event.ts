import {
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  Min,
} from 'class-validator';

import { AuditableEventData } from '../events/auditable-event.data';

export const USER_LIFECYCLE_CHANGES = [
  'CREATED',
  'UPDATED',
  'SUSPENDED',
  'ACTIVATED',
  'DELETED',
] as const;
export type UserLifecycleChange = (typeof USER_LIFECYCLE_CHANGES)[number];

/**
 * Published by tenant-auth whenever a user of a tenant is created, changed or removed. Other services
 * keep a projection of their tenant's users from it (the relay checks evaluation-pack owners, D15),
 * since no service reads tenant-auth's schema (D4). The tenant is the envelope's `tenantId`.
 */
export class UserLifecycleData extends AuditableEventData {
  @IsUUID()
  userId: string;

  @IsEmail({ require_tld: false })
  @MaxLength(320)
  email: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  displayName?: string;

  @IsIn(USER_LIFECYCLE_CHANGES)
  change: UserLifecycleChange;

  /** ACTIVE or SUSPENDED (DELETED with change DELETED). */
  @IsString()
  @MaxLength(32)
  status: string;

  /**
   * The owner's revision of the identity after this change (issue 30): projections apply an event
   * only when it is newer than what they hold, so a late or redelivered event never undoes a newer
   * state. Absent from producers that predate it (applied as before).
   */
  @IsOptional()
  @IsInt()
  @Min(1)
  revision?: number;
}

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

/** Services project users from it (D15), since none reads tenant-auth's schema (D4). */
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

  @IsString()
  @MaxLength(32)
  status: string;

  /** The owner's revision of the identity after this change (issue 30). */
  @IsOptional()
  @IsInt()
  @Min(1)
  revision?: number;
}

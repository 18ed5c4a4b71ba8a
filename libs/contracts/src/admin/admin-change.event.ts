import { Type } from 'class-transformer';
import {
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { AuditableEventData } from '../events/auditable-event.data';

export const ADMIN_CHANGES = ['CREATED', 'UPDATED', 'DELETED'] as const;
export type AdminChange = (typeof ADMIN_CHANGES)[number];

export class ChangeTarget {
  @Matches(/^[A-Z][A-Z0-9_]{0,63}$/)
  kind: string;

  @IsString()
  @MaxLength(200)
  id: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  name?: string;
}

export interface FieldChange {
  before?: unknown;
  after?: unknown;
}

/** What an administrative change did (D42). */
export class ChangedFields extends AuditableEventData {
  @IsDefined()
  @ValidateNested()
  @Type(() => ChangeTarget)
  target: ChangeTarget;

  @IsArray()
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  fields: string[];

  @IsObject()
  changes: Record<string, FieldChange>;
}

/** Published by tenant-auth, the relay and audit, each in the transaction of the change (D42). */
export class AdminChangeData extends ChangedFields {
  @IsIn(ADMIN_CHANGES)
  change: AdminChange;
}

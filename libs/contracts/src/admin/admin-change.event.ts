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

/** The administered resource a change was made to: its kind (`USER`, `CHANNEL` …) and id. */
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

/** One changed field: its value before and after (absent on the side where it had none). */
export interface FieldChange {
  before?: unknown;
  after?: unknown;
}

/**
 * What an administrative change did (D42): the target, the names of the fields it changed and
 * each one's values before and after, secrets and credentials as `"[redacted]"`. ADMIN_CHANGE
 * carries it as its own members; the specification's lifecycle types carry it in `details`.
 * It extends the auditable fields (all optional) so that ADMIN_CHANGE's payload is it plus `change`.
 */
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

/**
 * `ADMIN_CHANGE` (beyond the specification, D42): a create, change or delete of an administered
 * resource no specification type covers. Published by tenant-auth, the relay and audit, each in
 * the transaction of the change; the target is also the event's `sink`, so the audit trail's
 * `sinkType`/`sinkId` filters find a resource's changes.
 */
export class AdminChangeData extends ChangedFields {
  @IsIn(ADMIN_CHANGES)
  change: AdminChange;
}

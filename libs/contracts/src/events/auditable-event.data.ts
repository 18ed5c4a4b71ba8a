import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { ACTIONS, Action, PROTOCOLS, Protocol } from '../enums/policy';

/** Who or what did it: a user, an agent, a service account or the platform itself. */
export class EventParty {
  @IsString()
  @MaxLength(64)
  type: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  label?: string;
}

/**
 * Fields every event that the audit trail records may carry. Each event's payload extends it, so
 * the audit service can store any of them without knowing every type (D5, issue 5).
 */
export class AuditableEventData {
  @IsOptional()
  @ValidateNested()
  @Type(() => EventParty)
  actor?: EventParty;

  @IsOptional()
  @ValidateNested()
  @Type(() => EventParty)
  source?: EventParty;

  @IsOptional()
  @ValidateNested()
  @Type(() => EventParty)
  sink?: EventParty;

  @IsOptional()
  @IsIn(PROTOCOLS)
  protocol?: Protocol;

  @IsOptional()
  @IsIn(ACTIONS)
  action?: Action;

  @IsOptional()
  @IsArray()
  @IsUUID('all', { each: true })
  policyIds?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  summary?: string;

  @IsOptional()
  @IsObject()
  details?: Record<string, unknown>;
}

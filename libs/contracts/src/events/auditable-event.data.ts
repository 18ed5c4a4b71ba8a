import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { ACTIONS, Action, PROTOCOLS, Protocol } from '../enums/policy';
import { DecisionDetail } from './decision-detail';

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

/** Fields every event that the audit trail records may carry (D5, issue 5). */
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

  /** The policy decision's reasons, detections and masks, when the event reports one (D22). */
  @IsOptional()
  @ValidateNested()
  @Type(() => DecisionDetail)
  decision?: DecisionDetail;

  @IsOptional()
  @Matches(/^[0-9a-f]{32}$/)
  traceId?: string;

  @IsOptional()
  @Matches(/^[0-9a-f]{16}$/)
  spanId?: string;

  /** The audit trail keeps it only for tenants that turned content capture on (issue 5). */
  @IsOptional()
  @IsString()
  @MaxLength(1_048_576)
  content?: string;

  /** A producer that does not send the content may send its digest (hex SHA-256) instead. */
  @IsOptional()
  @Matches(/^[0-9a-f]{64}$/)
  contentDigest?: string;
}

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

  /** The policy decision's reasons, detections and masks, when the event reports one (D22). */
  @IsOptional()
  @ValidateNested()
  @Type(() => DecisionDetail)
  decision?: DecisionDetail;

  /** W3C trace context of the hop (32 and 16 hex digits). */
  @IsOptional()
  @Matches(/^[0-9a-f]{32}$/)
  traceId?: string;

  @IsOptional()
  @Matches(/^[0-9a-f]{16}$/)
  spanId?: string;

  /**
   * The message content. The audit trail keeps it only for tenants that turned content capture on;
   * it always keeps its SHA-256 digest (issue 5).
   */
  @IsOptional()
  @IsString()
  @MaxLength(1_048_576)
  content?: string;

  /** A producer that does not send the content may send its digest (hex SHA-256) instead. */
  @IsOptional()
  @Matches(/^[0-9a-f]{64}$/)
  contentDigest?: string;
}

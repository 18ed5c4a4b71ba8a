import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { ACTIONS, Action, PROTOCOLS, Protocol } from '../enums/policy';
import { EventParty } from '../events/auditable-event.data';

/** The most hops one answer carries: with content, well under NATS's 1 MiB message. */
export const MAX_RECORDED_HOPS_PAGE = 200;

/**
 * D49 replay: the decided hops the audit trail holds for a tenant in `[from, to)`, oldest first,
 * after the keyset position `(afterAt, afterId)` (governance.md G10). The relay asks; the audit
 * service, which owns the trail (D4), answers.
 */
export class RecordedHopsQuery {
  @IsUUID()
  tenantId: string;

  @IsISO8601({ strict: true })
  from: string;

  @IsISO8601({ strict: true })
  to: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  afterAt?: string;

  @IsOptional()
  @IsUUID()
  afterId?: string;

  @IsInt()
  @Min(1)
  @Max(MAX_RECORDED_HOPS_PAGE)
  limit: number;
}

/** What one binding said about a recorded hop (the `verdicts` of its COMMUNICATION_AUDIT event). */
export class RecordedVerdict {
  @IsString()
  @MaxLength(64)
  bindingId: string;

  @IsUUID()
  groupId: string;

  @IsIn(ACTIONS)
  action: Action;
}

/** One decided hop as the audit trail recorded it; `content` only when it was captured (D40). */
export class RecordedHop {
  @IsUUID()
  id: string;

  @IsISO8601({ strict: true })
  occurredAt: string;

  @IsIn(PROTOCOLS)
  protocol: Protocol;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  direction?: string;

  @ValidateNested()
  @Type(() => EventParty)
  source: EventParty;

  @ValidateNested()
  @Type(() => EventParty)
  sink: EventParty;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  method?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  toolName?: string;

  @IsIn(ACTIONS)
  action: Action;

  @IsArray()
  @IsString({ each: true })
  reasons: string[];

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => RecordedVerdict)
  verdicts: RecordedVerdict[];

  @IsOptional()
  @IsString()
  content?: string;
}

export class RecordedHopsPage {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => RecordedHop)
  hops: RecordedHop[];

  /** Whether more hops may follow the last one (ask again after it). */
  @IsObject()
  @IsOptional()
  next?: { afterAt: string; afterId: string };
}

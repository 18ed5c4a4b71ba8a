import {
  ACTIONS,
  AUDIT_EVENT_TYPES,
  Action,
  AuditEventType,
  PROTOCOLS,
  Protocol,
} from '@agp/contracts';
import { IsISO8601, IsOptional } from 'class-validator';

import { AsList, IsListOf } from './list-value';

/** The filters of operation 6 (D17), shared by the event list. */
export class EventFilterQueryDto {
  @IsOptional()
  @AsList()
  @IsListOf(AUDIT_EVENT_TYPES)
  eventType?: AuditEventType[];

  @IsOptional()
  @AsList()
  @IsListOf(PROTOCOLS)
  protocol?: Protocol[];

  @IsOptional()
  @AsList()
  @IsListOf(ACTIONS)
  action?: Action[];

  /** Inclusive (D17). */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  /** Exclusive (D17). */
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

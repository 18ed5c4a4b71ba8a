import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsISO8601,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { ACTIONS, Action } from '../enums/policy';
import { AuditableEventData } from '../events/auditable-event.data';

/** One side of a shadowed hop: the action, the policy groups that said so, and why (D22). */
export class ShadowSide {
  @IsIn(ACTIONS)
  action: Action;

  @IsArray()
  @IsUUID('all', { each: true })
  policyIds: string[];

  @IsArray()
  @IsString({ each: true })
  @MaxLength(2_000, { each: true })
  reasons: string[];
}

/**
 * D49, D55: what a SHADOW binding would have made of a live hop, beside what the enforced bindings
 * made of it (governance.md G7). Travels through the hops' group commit, so it is durable without
 * delaying the hop; the relay's own consumer keeps it for the shadow report. Not an audit event.
 */
export class PolicyShadowDecisionData extends AuditableEventData {
  @IsUUID()
  bindingId: string;

  /** The hop's COMMUNICATION_AUDIT event id: the same id the audit trail and a replay know it by. */
  @IsUUID()
  hopId: string;

  @IsISO8601({ strict: true })
  hopAt: string;

  @ValidateNested()
  @Type(() => ShadowSide)
  enforced: ShadowSide;

  @ValidateNested()
  @Type(() => ShadowSide)
  shadow: ShadowSide;
}

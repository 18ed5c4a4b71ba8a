import {
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  Min,
} from 'class-validator';

import { AuditableEventData } from '../events/auditable-event.data';

export const AGENT_LIFECYCLE_CHANGES = [
  'CREATED',
  'UPDATED',
  'SUSPENDED',
  'ACTIVATED',
  'DELETED',
] as const;

/** Published by tenant-auth for agent identities and by the relay for its registry metadata. */
export class AgentLifecycleData extends AuditableEventData {
  @IsUUID()
  agentId: string;

  @IsString()
  @MaxLength(200)
  name: string;

  @IsIn(AGENT_LIFECYCLE_CHANGES)
  change: (typeof AGENT_LIFECYCLE_CHANGES)[number];

  @IsString()
  status: string;

  @IsArray()
  @IsString({ each: true })
  permissions: string[];

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

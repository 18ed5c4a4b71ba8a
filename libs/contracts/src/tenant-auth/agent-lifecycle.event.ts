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

  /** The owner's revision of the identity after this change (issue 30). */
  @IsOptional()
  @IsInt()
  @Min(1)
  revision?: number;
}

import { IsArray, IsIn, IsString, IsUUID, MaxLength } from 'class-validator';

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
}

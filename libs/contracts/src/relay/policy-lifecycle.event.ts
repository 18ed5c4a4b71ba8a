import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

import { AuditableEventData } from '../events/auditable-event.data';

export const POLICY_LIFECYCLE_CHANGES = [
  'GROUP_CREATED',
  'GROUP_UPDATED',
  'GROUP_DELETED',
  'VERSION_CREATED',
  'VERSION_RETIRED',
  'BINDING_CREATED',
  'BINDING_UPDATED',
  'BINDING_UPGRADED',
  'BINDING_DELETED',
  'SETTINGS_UPDATED',
  // Beyond the specification (governance.md G13): an evaluation pack's run failed.
  'EVALUATION_RUN_FAILED',
] as const;
export type PolicyLifecycleChange = (typeof POLICY_LIFECYCLE_CHANGES)[number];

/** Every relay replica also reads it to drop its decision cache (D18, issue 6). */
export class PolicyLifecycleData extends AuditableEventData {
  @IsIn(POLICY_LIFECYCLE_CHANGES)
  change: PolicyLifecycleChange;

  @IsOptional()
  @IsUUID()
  groupId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  groupName?: string;

  @IsOptional()
  @IsUUID()
  versionId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  version?: string;

  @IsOptional()
  @IsUUID()
  bindingId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  previousVersion?: string;
}

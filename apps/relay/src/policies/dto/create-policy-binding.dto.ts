import { BINDING_LEVELS, BindingLevel } from '@agp/contracts';
import { IsIn, IsISO8601, IsInt, IsOptional, IsUUID, Matches, Max, Min } from 'class-validator';

import { BINDING_MODES, BindingMode } from '../policy.types';
import { VERSION_PATTERN } from '../version-ordering';

export class CreatePolicyBindingDto {
  @IsUUID()
  groupId: string;

  /** Default: the group's latest valid version (as operation 7 without targetVersion, D18). */
  @IsOptional()
  @Matches(VERSION_PATTERN, { message: 'groupVersion must be 1 to 4 dot-separated numbers' })
  groupVersion?: string;

  @IsIn(BINDING_LEVELS)
  bindingLevel: BindingLevel;

  /** D49: SHADOW bindings are judged beside live hops, never enforced (default ENFORCE). */
  @IsOptional()
  @IsIn(BINDING_MODES)
  mode?: BindingMode;

  @IsOptional()
  @IsUUID()
  agentId?: string;

  @IsOptional()
  @IsUUID()
  sourceAgentId?: string;

  @IsOptional()
  @IsUUID()
  sinkAgentId?: string;

  @IsOptional()
  @IsUUID()
  channelId?: string;

  /** Lower numbers are reported first on equal severity (D22). */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  priority?: number;

  @IsOptional()
  @IsISO8601({ strict: true })
  validFrom?: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  validTo?: string;
}

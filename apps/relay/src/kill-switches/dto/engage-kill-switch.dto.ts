import { IsIn, IsString, IsUUID, Length } from 'class-validator';

import { KILL_SWITCH_SCOPES, KillSwitchScope } from '../kill-switch.types';

export class EngageKillSwitchDto {
  @IsIn(KILL_SWITCH_SCOPES)
  scope: KillSwitchScope;

  /** The tenant's own id for TENANT, else the agent, MCP server, LLM gateway or channel. */
  @IsUUID()
  targetId: string;

  @IsString()
  @Length(1, 2_000)
  reason: string;
}

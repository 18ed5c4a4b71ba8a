import { AGENT_VISIBILITIES, AgentVisibility } from '@agp/contracts';
import {
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  IsUrl,
  Length,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { isSet } from '@agp/http';

/** The relay's own metadata of an agent; `null` clears a field. Identity fields are tenant-auth's. */
export class UpdateAgentDto {
  @ValidateIf(isSet)
  @IsString()
  @MaxLength(2_000)
  description?: string | null;

  @ValidateIf(isSet)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  agentCardUrl?: string | null;

  @IsOptional()
  @IsIn(AGENT_VISIBILITIES)
  visibility?: AgentVisibility;

  /** Must name a user of the tenant. */
  @ValidateIf(isSet)
  @IsUUID()
  ownerUserId?: string | null;

  /** Free text such as LOW, MEDIUM, HIGH; policies see it as `input.source.riskTier`. */
  @ValidateIf(isSet)
  @IsString()
  @Length(1, 32)
  riskTier?: string | null;
}

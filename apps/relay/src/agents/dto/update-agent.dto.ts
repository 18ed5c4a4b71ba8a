import { AGENT_VISIBILITIES, AgentVisibility } from '@agp/contracts';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { isPresent, isSet } from '@agp/http';

import {
  HEADER_VALUE,
  HEADER_VALUE_MESSAGE,
  IsCredentialHeader,
} from '../../mcp-servers/dto/mcp-server-fields';
import { MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from '../../mcp-servers/mcp-servers.constants';

/** The relay's own metadata of an agent; `null` clears a field. Identity fields are tenant-auth's. */
export class UpdateAgentDto {
  @ValidateIf(isSet)
  @IsString()
  @MaxLength(2_000)
  description?: string | null;

  /** D38: where the relay fetches the agent's A2A card; also checked against egress (D37). */
  @ValidateIf(isSet)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @MaxLength(2_000)
  agentCardUrl?: string | null;

  /** D37: the token the relay sends the agent on A2A calls; write-only, sealed; null removes it. */
  @ValidateIf(isSet)
  @IsString()
  @Length(1, 8_192)
  @Matches(HEADER_VALUE, { message: HEADER_VALUE_MESSAGE.replace('credential', 'a2aCredential') })
  a2aCredential?: string | null;

  /** The header it travels in; `Authorization` (as `Bearer <token>`) by default; null resets. */
  @ValidateIf(isSet)
  @IsCredentialHeader()
  a2aCredentialHeader?: string | null;

  /** How long the relay waits for the agent's answer, or between streamed events (ms). */
  @ValidateIf(isPresent)
  @IsInt()
  @Min(MIN_TIMEOUT_MS)
  @Max(MAX_TIMEOUT_MS)
  a2aTimeoutMs?: number;

  @IsOptional()
  @IsIn(AGENT_VISIBILITIES)
  visibility?: AgentVisibility;

  /** Must name a user of the tenant. */
  @ValidateIf(isSet)
  @IsUUID()
  ownerUserId?: string | null;

  /**
   * D19: where the relay sends the agent's signed webhooks; `null` removes the webhook and its
   * signing secrets. Checked against the egress rules (D37) by the service.
   */
  @ValidateIf(isSet)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @MaxLength(2_000)
  webhookUrl?: string | null;

  /** Free text such as LOW, MEDIUM, HIGH; policies see it as `input.source.riskTier`. */
  @ValidateIf(isSet)
  @IsString()
  @Length(1, 32)
  riskTier?: string | null;
}

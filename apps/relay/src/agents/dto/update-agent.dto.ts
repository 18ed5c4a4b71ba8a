import { AGENT_VISIBILITIES, AgentVisibility } from '@agp/contracts';
import { IsIn, IsOptional, IsString, IsUUID, Length, ValidateIf } from 'class-validator';
import { isSet } from '@agp/http';

import {
  IsCredentialHeader,
  IsDescription,
  IsHeaderValue,
  IsTimeoutMs,
  IsUpstreamUrl,
} from '../../common/upstream-fields';
import { MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from '../../mcp-servers/mcp-servers.constants';

/** The relay's own metadata of an agent; `null` clears a field. Identity fields are tenant-auth's. */
export class UpdateAgentDto {
  @ValidateIf(isSet)
  @IsDescription()
  description?: string | null;

  /** D38: where the relay fetches the agent's A2A card; also checked against egress (D37). */
  @ValidateIf(isSet)
  @IsUpstreamUrl()
  agentCardUrl?: string | null;

  /** D37: the token the relay sends the agent on A2A calls; write-only, sealed; null removes it. */
  @ValidateIf(isSet)
  @IsHeaderValue('a2aCredential')
  a2aCredential?: string | null;

  /** The header it travels in; `Authorization` (as `Bearer <token>`) by default; null resets. */
  @ValidateIf(isSet)
  @IsCredentialHeader()
  a2aCredentialHeader?: string | null;

  /** How long the relay waits for the agent's answer, or between streamed events (ms). */
  @IsTimeoutMs(MIN_TIMEOUT_MS, MAX_TIMEOUT_MS)
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
  @IsUpstreamUrl()
  webhookUrl?: string | null;

  /** Free text such as LOW, MEDIUM, HIGH; policies see it as `input.source.riskTier`. */
  @ValidateIf(isSet)
  @IsString()
  @Length(1, 32)
  riskTier?: string | null;
}

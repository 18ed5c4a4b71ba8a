import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { isPresent } from '@agp/http';

import {
  MAX_TIMEOUT_MS,
  MCP_TRANSPORTS,
  MIN_TIMEOUT_MS,
  McpTransport,
  TRANSPORT_MESSAGE,
} from '../mcp-servers.constants';
import { HEADER_VALUE, HEADER_VALUE_MESSAGE, IsCredentialHeader } from './mcp-server-fields';

export class CreateMcpServerDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  /** D37: also checked against the egress rules (common/egress-policy.ts) by the service. */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @MaxLength(2_000)
  url: string;

  @IsIn(MCP_TRANSPORTS, { message: TRANSPORT_MESSAGE })
  transport: McpTransport;

  /** The MCP protocol revision the server speaks (`2025-06-18`). */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  protocolVersion?: string;

  /** D37: write-only; stored sealed (AES-256-GCM), answered as `"********"`. */
  @IsOptional()
  @IsString()
  @Length(1, 8_192)
  @Matches(HEADER_VALUE, { message: HEADER_VALUE_MESSAGE })
  credential?: string;

  /** The header the credential travels in; `Authorization` (as `Bearer <credential>`) by default. */
  @IsOptional()
  @IsCredentialHeader()
  credentialHeader?: string;

  /** How long the relay waits for the server's answer (D37, T6); null is not a timeout. */
  @ValidateIf(isPresent)
  @IsInt()
  @Min(MIN_TIMEOUT_MS)
  @Max(MAX_TIMEOUT_MS)
  timeoutMs?: number;
}

import {
  IsIn,
  IsInt,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';

import {
  MAX_TIMEOUT_MS,
  MCP_TRANSPORTS,
  MIN_TIMEOUT_MS,
  McpTransport,
  TRANSPORT_MESSAGE,
} from '../mcp-servers.constants';
import {
  HEADER_VALUE,
  HEADER_VALUE_MESSAGE,
  IsCredentialHeader,
  isPresent,
  isSet,
} from './mcp-server-fields';

/** A partial update: absent keeps a field; `null` clears the optional ones only. */
export class UpdateMcpServerDto {
  @ValidateIf(isPresent)
  @IsString()
  @Length(1, 200)
  name?: string;

  @ValidateIf(isSet)
  @IsString()
  @MaxLength(2_000)
  description?: string | null;

  @ValidateIf(isPresent)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @MaxLength(2_000)
  url?: string;

  @ValidateIf(isPresent)
  @IsIn(MCP_TRANSPORTS, { message: TRANSPORT_MESSAGE })
  transport?: McpTransport;

  @ValidateIf(isSet)
  @IsString()
  @MaxLength(32)
  protocolVersion?: string | null;

  /** D37: a new credential replaces the old one; `null` removes it. */
  @ValidateIf(isSet)
  @IsString()
  @Length(1, 8_192)
  @Matches(HEADER_VALUE, { message: HEADER_VALUE_MESSAGE })
  credential?: string | null;

  /** `null` goes back to `Authorization`. */
  @ValidateIf(isSet)
  @IsCredentialHeader()
  credentialHeader?: string | null;

  @ValidateIf(isPresent)
  @IsInt()
  @Min(MIN_TIMEOUT_MS)
  @Max(MAX_TIMEOUT_MS)
  timeoutMs?: number;
}

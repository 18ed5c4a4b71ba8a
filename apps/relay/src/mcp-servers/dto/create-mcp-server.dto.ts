import { IsIn, IsOptional, IsString, IsUrl, Length, MaxLength } from 'class-validator';

import { MCP_TRANSPORTS, McpTransport } from '../mcp-servers.constants';

export class CreateMcpServerDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  url: string;

  @IsIn(MCP_TRANSPORTS)
  transport: McpTransport;

  /** The MCP protocol revision the server speaks (`2025-06-18`). */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  protocolVersion?: string;
}

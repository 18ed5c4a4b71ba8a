import { IsIn, IsOptional, IsUUID, IsUrl, MaxLength } from 'class-validator';

/**
 * Beyond the specification (G19): a sandbox double a pack's LIVE runs reach in place of one
 * target's own upstream; exactly one of `url` and `doubleId`.
 */
export class LiveDoubleDto {
  @IsIn(['MCP_SERVER', 'AGENT'])
  targetType: 'MCP_SERVER' | 'AGENT';

  @IsUUID()
  targetId: string;

  /** An MCP Streamable HTTP endpoint, or an A2A JSON-RPC endpoint; never sent the target's credential. */
  @IsOptional()
  @MaxLength(2_000)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  url?: string;

  /** A registered MCP server (for an MCP server) or agent (for an agent) of the tenant. */
  @IsOptional()
  @IsUUID()
  doubleId?: string;
}

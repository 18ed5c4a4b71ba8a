import { IsArray, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

import { AuditableEventData } from '../events/auditable-event.data';

/**
 * D32: the tools an agent may call on an MCP server changed (a grant created, patched or removed
 * with its subscription). `tools` null or absent: every tool; an empty array after a removal.
 */
export class McpGrantsChangedData extends AuditableEventData {
  @IsUUID()
  subscriptionId: string;

  @IsUUID()
  agentId: string;

  @IsUUID()
  mcpServerId: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  tools?: string[] | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  previousTools?: string[] | null;
}

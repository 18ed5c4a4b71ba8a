import { IsArray, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

import { AuditableEventData } from '../events/auditable-event.data';

/** D32: `tools` null or absent is every tool; an empty array follows a removal. */
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

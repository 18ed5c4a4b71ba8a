import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@agp/http';

/** D57: the list's filters, cursor paged (D31). */
export class ListConversationsQueryDto {
  @IsOptional() @IsString() @MaxLength(200) agentId?: string;
  @IsOptional() @IsString() @MaxLength(200) userId?: string;
  @IsOptional() @IsString() @MaxLength(200) channelId?: string;
  @IsOptional() @IsString() @MaxLength(200) mcpServerId?: string;

  /** Conversations with a hop at or after this time. */
  @IsOptional() @IsISO8601({ strict: true }) from?: string;
  /** Conversations started before this time. */
  @IsOptional() @IsISO8601({ strict: true }) to?: string;

  @IsOptional() @IsString() @MaxLength(200) cursor?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;
}

import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export const DEFAULT_DISCOVERY_LIMIT = 20;
export const MAX_DISCOVERY_LIMIT = 100;

/** D59: what both discovery routes take; each filter must match exactly (DS5), `q` ranks (DS3). */
export class DiscoveryQueryDto {
  /** Free text over names, skills or tools, tags, descriptions and examples. */
  @IsOptional()
  @IsString()
  @Length(1, 500)
  q?: string;

  /** An agent's skill by id or name; an MCP server's tool by name (DS4). Case-insensitive. */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  skill?: string;

  /** A capability the card sets true (`streaming`, `pushNotifications`); `tools` for MCP. */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  capability?: string;

  /** The `nextCursor` of the page before (DS6). */
  @IsOptional()
  @IsString()
  @Length(1, 2000)
  cursor?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_DISCOVERY_LIMIT)
  limit: number = DEFAULT_DISCOVERY_LIMIT;
}

/** Agents: D59's filters, all of them. */
export class DiscoverAgentsQueryDto extends DiscoveryQueryDto {
  /** A skill tag, case-insensitive. */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  tag?: string;

  /** A media type the agent accepts, by default or in one of its skills (`text/plain`). */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  inputMode?: string;

  /** A media type the agent answers in, by default or in one of its skills. */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  outputMode?: string;
}

/** MCP servers: tools have no tags nor media modes, so those filters are refused (DS4). */
export class DiscoverMcpServersQueryDto extends DiscoveryQueryDto {
  /** A tool name, case-insensitive (the same as `skill`). */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  tool?: string;
}

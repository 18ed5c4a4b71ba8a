import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@agp/http';

import { LISTING_KINDS, ListingKind } from '../marketplace.types';

/**
 * D59: browse and search, cursor paged (D31). MK29: discovery's filters too, each an exact,
 * case-insensitive facet (DS5): an agent listing's skills, tags, capabilities and modes, an MCP
 * listing's tools.
 */
export class ListListingsQueryDto {
  @IsOptional() @IsString() @MaxLength(400) q?: string;

  @IsOptional() @IsIn(LISTING_KINDS) kind?: ListingKind;

  @IsOptional() @IsString() @Length(1, 64) category?: string;

  /** An agent's skill by id or name, an MCP server's tool by name. */
  @IsOptional() @IsString() @Length(1, 200) skill?: string;

  @IsOptional() @IsString() @Length(1, 200) tag?: string;

  /** A capability the card sets true (`streaming`), `tools` or a tool annotation hint for MCP. */
  @IsOptional() @IsString() @Length(1, 200) capability?: string;

  @IsOptional() @IsString() @Length(1, 200) inputMode?: string;

  @IsOptional() @IsString() @Length(1, 200) outputMode?: string;

  /** An MCP listing's tool by name. */
  @IsOptional() @IsString() @Length(1, 200) tool?: string;

  /** Only the asking tenant's own listings (its publisher view). */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean()
  mine?: boolean;

  @IsOptional() @IsString() @MaxLength(2000) cursor?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;
}

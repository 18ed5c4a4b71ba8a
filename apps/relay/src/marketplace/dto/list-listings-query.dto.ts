import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@agp/http';

import { LISTING_KINDS, ListingKind } from '../marketplace.types';

/** D59: browse and search (`q`, `kind`, `category`), cursor paged (D31). */
export class ListListingsQueryDto {
  @IsOptional() @IsString() @MaxLength(400) q?: string;

  @IsOptional() @IsIn(LISTING_KINDS) kind?: ListingKind;

  @IsOptional() @IsString() @MaxLength(64) category?: string;

  /** Only the asking tenant's own listings (its publisher view). */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean()
  mine?: boolean;

  @IsOptional() @IsString() @MaxLength(200) cursor?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;
}

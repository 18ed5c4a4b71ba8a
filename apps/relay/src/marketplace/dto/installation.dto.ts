import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@agp/http';

import { INSTALLATION_STATUSES, InstallationStatus } from '../marketplace.types';

/** D59: `POST …/listings/{listingId}/installations`. */
export class InstallListingDto {
  /** MK6: every policy the listing requires, accepted by id. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true })
  acceptedPolicies?: string[];
}

/** D59: the publisher suspends or resumes. */
export class ChangeInstallationDto {
  @IsIn(INSTALLATION_STATUSES)
  status!: Exclude<InstallationStatus, 'REMOVED'>;
}

/** `side`: INSTALLED (the tenant's installs, default) or PUBLISHED (installs of its listings). */
export class ListInstallationsQueryDto {
  @IsOptional() @IsIn(['INSTALLED', 'PUBLISHED']) side: 'INSTALLED' | 'PUBLISHED' = 'INSTALLED';

  @IsOptional() @IsUUID() listingId?: string;

  @IsOptional() @IsString() @MaxLength(200) cursor?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;
}

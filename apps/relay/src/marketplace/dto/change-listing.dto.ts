import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { ListingTermsDto } from './publish-listing.dto';

/** D59: `PATCH /relay/v1/marketplace/listings/{listingId}`; kind and target never change. */
export class ChangeListingDto {
  @IsOptional() @IsString() @Length(1, 200) name?: string;

  @IsOptional() @IsString() @MaxLength(2000) summary?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  categories?: string[];

  @IsOptional()
  @ValidateNested()
  @Type(() => ListingTermsDto)
  terms?: ListingTermsDto;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true })
  requiredPolicies?: string[];

  @IsOptional() @IsObject() serverJson?: Record<string, unknown>;
}

import { IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

/** D59: `POST /relay/v1/licences/verify`. */
export class VerifyLicenceDto {
  @IsString()
  @MaxLength(16_384)
  licence!: string;

  @IsOptional() @IsUUID() listingId?: string;

  @IsOptional() @IsUUID() tenantId?: string;
}

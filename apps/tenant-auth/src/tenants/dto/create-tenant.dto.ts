import {
  IsEmail,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';

export const SLUG_PATTERN = /^[a-z][a-z0-9-]{1,62}$/;

export class CreateTenantDto {
  @Matches(SLUG_PATTERN, {
    message: 'slug must be 2–63 lower-case letters, digits or -, starting with a letter',
  })
  slug: string;

  @IsString()
  @Length(1, 200)
  name: string;

  /** The tenant's first administrator (D11): all entities ADMIN. */
  @IsEmail()
  @MaxLength(320)
  adminEmail: string;

  @IsOptional()
  @IsString()
  @Length(1, 200)
  adminDisplayName?: string;

  /** Generated and answered once when omitted. */
  @IsOptional()
  @IsString()
  @MinLength(12)
  @MaxLength(200)
  adminPassword?: string;
}

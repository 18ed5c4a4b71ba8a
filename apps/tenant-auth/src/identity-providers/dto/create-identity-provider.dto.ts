import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsFQDN,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';

import { IsGroupMappings } from './group-mappings.validator';
import { IdentityProviderConfigDto } from './identity-provider-config.dto';

export class CreateIdentityProviderDto {
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, {
    message: 'alias must be 1–63 lower-case letters, digits or -',
  })
  alias: string;

  @IsString()
  @Length(1, 200)
  displayName: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ValidateNested()
  @Type(() => IdentityProviderConfigDto)
  config: IdentityProviderConfigDto;

  @IsOptional()
  @IsGroupMappings()
  groupMappings?: Record<string, string[]>;

  /** Domains whose users sign in here; each needs a TXT record to be verified. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsFQDN({}, { each: true })
  emailDomains?: string[];

  @IsOptional()
  @IsUrl({ require_protocol: true, require_tld: false })
  redirectUri?: string;
}

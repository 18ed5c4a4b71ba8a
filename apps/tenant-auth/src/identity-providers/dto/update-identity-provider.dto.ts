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
  ValidateNested,
} from 'class-validator';

import { IsGroupMappings } from './group-mappings.validator';
import { UpdateIdentityProviderConfigDto } from './identity-provider-config.dto';

export class UpdateIdentityProviderDto {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  displayName?: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @IsOptional()
  @ValidateNested()
  @Type(() => UpdateIdentityProviderConfigDto)
  config?: UpdateIdentityProviderConfigDto;

  @IsOptional()
  @IsGroupMappings()
  groupMappings?: Record<string, string[]>;

  /** The whole list: domains kept keep their verification; new ones start unverified. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsFQDN({}, { each: true })
  emailDomains?: string[];

  @IsOptional()
  @IsUrl({ require_protocol: true, require_tld: false })
  redirectUri?: string;
}

import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { IDENTITY_PROVIDER_TYPES, IdentityProviderType } from '@agp/contracts';

import { IsIssuerUrl } from './issuer-url.validator';

export class IdentityProviderConfigDto {
  /** D26. */
  @IsIn(IDENTITY_PROVIDER_TYPES)
  type: IdentityProviderType;

  @IsString()
  @Length(1, 500)
  clientId: string;

  /** D26: write-only; answered as "********" when set. */
  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  clientSecret?: string;

  /** The provider's OpenID issuer (an Okta org, an Entra tenant); Google's is fixed. */
  @IsOptional()
  @IsIssuerUrl()
  issuer?: string;
}

export class UpdateIdentityProviderConfigDto {
  @IsOptional()
  @IsIn(IDENTITY_PROVIDER_TYPES)
  type?: IdentityProviderType;

  @IsOptional()
  @IsString()
  @Length(1, 500)
  clientId?: string;

  /** Omitted: unchanged; "" removes it. */
  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  clientSecret?: string;

  @IsOptional()
  @IsIssuerUrl()
  issuer?: string;
}

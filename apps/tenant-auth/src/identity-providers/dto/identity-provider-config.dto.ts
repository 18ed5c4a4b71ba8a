import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { IDENTITY_PROVIDER_TYPES, IdentityProviderType } from '@agp/contracts';
import { PatchType } from '@agp/http';

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

/** A partial config: omitted keeps a field; `clientSecret: ""` or `null` removes the secret. */
export class UpdateIdentityProviderConfigDto extends PatchType(IdentityProviderConfigDto) {}

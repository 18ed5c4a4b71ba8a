import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { OmitType, PatchType } from '@agp/http';

import { CreateIdentityProviderDto } from './create-identity-provider.dto';
import { UpdateIdentityProviderConfigDto } from './identity-provider-config.dto';

/** A partial update (D12) of everything but the alias. */
export class UpdateIdentityProviderDto extends PatchType(
  OmitType(CreateIdentityProviderDto, ['alias', 'config'] as const),
) {
  @IsOptional()
  @ValidateNested()
  @Type(() => UpdateIdentityProviderConfigDto)
  config?: UpdateIdentityProviderConfigDto;
}

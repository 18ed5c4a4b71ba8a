import { IsString, IsUrl, Length, MaxLength, ValidateIf } from 'class-validator';

import { isPresent, isSet } from '../../common/patch-fields';

export class UpdateLlmGatewayDto {
  @ValidateIf(isPresent)
  @IsString()
  @Length(1, 200)
  name?: string;

  @ValidateIf(isSet)
  @IsString()
  @MaxLength(2_000)
  description?: string | null;

  /** The upstream provider (`openai`, `anthropic`, `azure-openai` …). */
  @ValidateIf(isPresent)
  @IsString()
  @Length(1, 100)
  provider?: string;

  /** The OpenAI-compatible base address the relay forwards to (D20). */
  @ValidateIf(isPresent)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  baseUrl?: string;

  @ValidateIf(isSet)
  @IsString()
  @MaxLength(200)
  model?: string | null;
}

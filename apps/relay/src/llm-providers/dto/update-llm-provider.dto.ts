import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsInt,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';

import {
  MAX_MODELS,
  MAX_MODEL_NAME,
  MAX_PROVIDER_TIMEOUT_MS,
  MIN_PROVIDER_TIMEOUT_MS,
} from '../llm-providers.constants';
import { API_KEY_MESSAGE, API_KEY_VALUE, isPresent, isSet } from './llm-provider-fields';

/** A partial update: absent keeps a field; `null` clears the optional ones only. */
export class UpdateLlmProviderDto {
  @ValidateIf(isPresent)
  @IsString()
  @Length(1, 200)
  name?: string;

  @ValidateIf(isSet)
  @IsString()
  @MaxLength(2_000)
  description?: string | null;

  @ValidateIf(isPresent)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @MaxLength(2_000)
  baseUrl?: string;

  /** D37: a new key replaces the old one; `null` removes it. */
  @ValidateIf(isSet)
  @IsString()
  @Length(1, 8_192)
  @Matches(API_KEY_VALUE, { message: API_KEY_MESSAGE })
  apiKey?: string | null;

  /** `null`: any model the caller names. */
  @ValidateIf(isSet)
  @IsArray()
  @ArrayMaxSize(MAX_MODELS)
  @ArrayUnique()
  @IsString({ each: true })
  @Length(1, MAX_MODEL_NAME, { each: true })
  models?: string[] | null;

  @ValidateIf(isPresent)
  @IsInt()
  @Min(MIN_PROVIDER_TIMEOUT_MS)
  @Max(MAX_PROVIDER_TIMEOUT_MS)
  timeoutMs?: number;
}

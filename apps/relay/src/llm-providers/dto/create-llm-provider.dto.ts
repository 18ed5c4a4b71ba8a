import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { isPresent } from '@agp/http';

import {
  MAX_MODELS,
  MAX_MODEL_NAME,
  MAX_PROVIDER_TIMEOUT_MS,
  MIN_PROVIDER_TIMEOUT_MS,
} from '../llm-providers.constants';

/** D37: an API key travels as `Authorization: Bearer <apiKey>`, so it must be a header value. */
const API_KEY_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const API_KEY_MESSAGE =
  'apiKey must be printable ASCII without leading or trailing spaces (it is sent as an HTTP header value)';

/** D39: an OpenAI-compatible provider the relay forwards chat completions to. */
export class CreateLlmProviderDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  /** The OpenAI-compatible base URL (`https://api.openai.com/v1`); D37 egress rules apply. */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @MaxLength(2_000)
  baseUrl: string;

  /** D37: write-only; stored sealed (AES-256-GCM), answered as `"********"`. */
  @IsOptional()
  @IsString()
  @Length(1, 8_192)
  @Matches(API_KEY_VALUE, { message: API_KEY_MESSAGE })
  apiKey?: string;

  /** The models it serves; absent: any model the caller names. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MODELS)
  @ArrayUnique()
  @IsString({ each: true })
  @Length(1, MAX_MODEL_NAME, { each: true })
  models?: string[];

  /** How long the relay waits for its first byte before failing over (D39, T17). */
  @ValidateIf(isPresent)
  @IsInt()
  @Min(MIN_PROVIDER_TIMEOUT_MS)
  @Max(MAX_PROVIDER_TIMEOUT_MS)
  timeoutMs?: number;
}

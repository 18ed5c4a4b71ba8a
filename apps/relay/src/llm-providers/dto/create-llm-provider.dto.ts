import { ArrayMaxSize, ArrayUnique, IsArray, IsOptional, IsString, Length } from 'class-validator';

import {
  MAX_MODELS,
  MAX_MODEL_NAME,
  MAX_PROVIDER_TIMEOUT_MS,
  MIN_PROVIDER_TIMEOUT_MS,
} from '../llm-providers.constants';
import {
  IsDescription,
  IsHeaderValue,
  IsTimeoutMs,
  IsUpstreamUrl,
} from '../../common/upstream-fields';

/** D39: an OpenAI-compatible provider the relay forwards chat completions to. */
export class CreateLlmProviderDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsDescription()
  description?: string;

  /** The OpenAI-compatible base URL (`https://api.openai.com/v1`); D37 egress rules apply. */
  @IsUpstreamUrl()
  baseUrl: string;

  /**
   * D37: write-only; stored sealed (AES-256-GCM), answered as `"********"`; it travels as
   * `Authorization: Bearer <apiKey>`, so it must be a header value.
   */
  @IsOptional()
  @IsHeaderValue('apiKey')
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
  @IsTimeoutMs(MIN_PROVIDER_TIMEOUT_MS, MAX_PROVIDER_TIMEOUT_MS)
  timeoutMs?: number;
}

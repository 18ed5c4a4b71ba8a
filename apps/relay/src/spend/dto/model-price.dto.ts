import { PatchType } from '@agp/http';
import { IsIn, IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';

import { CURRENCIES, Currency } from '../spend.types';

/** SP2: a non-negative decimal string with at most six decimals (USD per million tokens). */
export const PRICE = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,6})?$/;
const PRICE_MESSAGE = (field: string): string =>
  `${field} must be a decimal string (USD per million tokens, at most 6 decimals), e.g. "2.5"`;

/** D60 `{model, currency, inputPerMillion, outputPerMillion, cachedInputPerMillion?}`. */
export class CreateModelPriceDto {
  /** The model as the provider names it (SP4: the served model, else the one the agent named). */
  @IsString()
  @Length(1, 200)
  model: string;

  /** SP1: USD. */
  @IsIn(CURRENCIES)
  currency: Currency;

  @IsString()
  @Matches(PRICE, { message: PRICE_MESSAGE('inputPerMillion') })
  inputPerMillion: string;

  @IsString()
  @Matches(PRICE, { message: PRICE_MESSAGE('outputPerMillion') })
  outputPerMillion: string;

  /** Cached prompt tokens (OpenAI's `prompt_tokens_details.cached_tokens`); absent: the input price. */
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsString()
  @Matches(PRICE, { message: PRICE_MESSAGE('cachedInputPerMillion') })
  cachedInputPerMillion?: string | null;
}

/** A PATCH: absent fields are kept; `cachedInputPerMillion: null` clears it. */
export class UpdateModelPriceDto extends PatchType(CreateModelPriceDto) {}

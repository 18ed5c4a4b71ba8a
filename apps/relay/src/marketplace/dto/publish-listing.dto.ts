import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Matches,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

import { DEFAULT_ASSETS } from '@x402/evm';

import { LISTING_KINDS, ListingKind, TERMS_TYPES, TermsType } from '../marketplace.types';

/**
 * At most six decimal places (micro-dollars). class-validator's `maxDecimalPlaces` throws on a
 * number JSON writes in exponent form (1e-7), which would be a 500 instead of D12's 400.
 */
function HasMicroDollars(): PropertyDecorator {
  return ValidateBy({
    name: 'hasMicroDollars',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'number' || !Number.isFinite(value)) {
          return false;
        }
        const micros = value * 1_000_000;
        return Math.abs(micros - Math.round(micros)) < 1e-6;
      },
      defaultMessage: () => 'priceUsd must be a number with at most 6 decimal places',
    },
  });
}

/** PY20: `payTo` and `network` say where a PER_CALL price is paid; no other terms have them. */
function PerCallOnly(): PropertyDecorator {
  return ValidateBy({
    name: 'perCallOnly',
    validator: {
      validate: (_value: unknown, args) => (args?.object as { type?: string }).type === 'PER_CALL',
      defaultMessage: (args) => `${args?.property ?? 'this'} is a term of PER_CALL listings only`,
    },
  });
}

/**
 * MK38: a PER_CALL price is sold in the network's USDC as the official `@x402/evm` table names it
 * (PY20), so a network without an entry there could never be priced.
 */
function IsSellableNetwork(): PropertyDecorator {
  return ValidateBy({
    name: 'isSellableNetwork',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        /^eip155:[1-9][0-9]{0,15}$/.test(value) &&
        Object.prototype.hasOwnProperty.call(DEFAULT_ASSETS, value),
      defaultMessage: () =>
        `network must be a CAIP-2 EVM network the x402 exact scheme can price: one of ${Object.keys(DEFAULT_ASSETS).join(', ')}`,
    },
  });
}

/**
 * PY23: an MCP_SERVER listing is never charged (an installed MCP server takes no payment), so
 * terms saying where its price is paid would promise a sale that never happens.
 */
export function chargeFaults(
  kind: ListingKind,
  terms: { payTo?: string; network?: string },
): { field: string; message: string }[] {
  return kind === 'MCP_SERVER' && (terms.payTo !== undefined || terms.network !== undefined)
    ? [
        {
          field: 'terms.payTo',
          message:
            'an MCP_SERVER listing is not sold with x402: give its PER_CALL price without payTo and network',
        },
      ]
    : [];
}

/** D59 `terms`: a price for PER_CALL, a validity for LICENSED (MK5). */
export class ListingTermsDto {
  @IsIn(TERMS_TYPES)
  type!: TermsType;

  @ValidateIf((t: ListingTermsDto) => t.type === 'PER_CALL' || t.priceUsd !== undefined)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @HasMicroDollars()
  @Min(0)
  @Max(1_000_000)
  priceUsd?: number;

  /** payments.md PY20: where a PER_CALL price is paid with x402; without it, a fact (MK5). */
  @ValidateIf((t: ListingTermsDto) => t.payTo !== undefined || t.network !== undefined)
  @PerCallOnly()
  @Matches(/^0x[0-9a-fA-F]{40}$/, {
    message: 'payTo must be an EVM address (0x and 40 hex digits)',
  })
  payTo?: string;

  @ValidateIf((t: ListingTermsDto) => t.payTo !== undefined || t.network !== undefined)
  @PerCallOnly()
  @IsSellableNetwork()
  network?: string;

  @ValidateIf(
    (t: ListingTermsDto) => t.type === 'LICENSED' || t.licenceValiditySeconds !== undefined,
  )
  @IsInt()
  @Min(60)
  @Max(10 * 365 * 24 * 3600)
  licenceValiditySeconds?: number;
}

/** D59: `POST /relay/v1/marketplace/listings`. */
export class PublishListingDto {
  @IsIn(LISTING_KINDS)
  kind!: ListingKind;

  @IsUUID()
  targetId!: string;

  @IsString()
  @Length(1, 200)
  name!: string;

  @IsString()
  @MaxLength(2000)
  summary!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  categories?: string[];

  @ValidateNested()
  @Type(() => ListingTermsDto)
  terms!: ListingTermsDto;

  /** The publisher's policy groups its callers accept (MK6). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true })
  requiredPolicies?: string[];

  /** MCP_SERVER: the MCP registry's `server.json` the listing exposes (MK3). */
  @IsOptional()
  @IsObject()
  serverJson?: Record<string, unknown>;
}

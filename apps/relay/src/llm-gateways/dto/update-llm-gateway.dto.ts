import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  ValidateIf,
} from 'class-validator';

import { IsModelMap, MAX_GATEWAY_PROVIDERS, isPresent, isSet } from './llm-gateway-fields';

/** A partial update: absent keeps a field; `null` clears the optional ones only. */
export class UpdateLlmGatewayDto {
  @ValidateIf(isPresent)
  @IsString()
  @Length(1, 200)
  name?: string;

  @ValidateIf(isSet)
  @IsString()
  @MaxLength(2_000)
  description?: string | null;

  /** The whole list, in failover order, replaces the old one. */
  @ValidateIf(isPresent)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_GATEWAY_PROVIDERS)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  providers?: string[];

  @ValidateIf(isSet)
  @IsModelMap()
  modelMap?: Record<string, string> | null;
}

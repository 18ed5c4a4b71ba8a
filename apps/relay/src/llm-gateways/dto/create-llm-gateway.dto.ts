import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
} from 'class-validator';

import { IsModelMap, MAX_GATEWAY_PROVIDERS } from './llm-gateway-fields';

/** D39: a gateway is its providers in failover order and an optional model map. */
export class CreateLlmGatewayDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  /** Provider ids in failover order (D39). */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_GATEWAY_PROVIDERS)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  providers: string[];

  @IsOptional()
  @IsModelMap()
  modelMap?: Record<string, string>;
}

import { PROTOCOLS, Protocol } from '@agp/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** Which recorded hops a replay keeps (every list: any of its values; absent: all). */
export class ReplayFiltersDto {
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(5)
  @IsIn(PROTOCOLS, { each: true })
  protocols?: Protocol[];

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  toolNames?: string[];

  /** Hops from or to any of these endpoints. */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  endpointIds?: string[];
}

/** D49, D55: `{from, to, bindingId?, filters?}`. */
export class CreateReplayDto {
  @IsISO8601({ strict: true })
  from: string;

  @IsISO8601({ strict: true })
  to: string;

  /** D55: judge as if the version were bound where this binding is (default: TENANT level). */
  @IsOptional()
  @IsUUID()
  bindingId?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ReplayFiltersDto)
  filters?: ReplayFiltersDto;
}

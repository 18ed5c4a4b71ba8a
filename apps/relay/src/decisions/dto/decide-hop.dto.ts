import {
  DIRECTIONS,
  ENDPOINT_TYPES,
  EndpointType,
  MessageDirection,
  PROTOCOLS,
  Protocol,
} from '@agp/contracts';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';

export class EndpointRefDto {
  @IsIn(ENDPOINT_TYPES)
  type: EndpointType;

  @IsUUID()
  id: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

export class ToolDto {
  @IsString()
  @Length(1, 200)
  name: string;
}

export class MessageDto {
  /** The JSON-RPC params or result, or the chat messages, as sent (POLICY.md). */
  @IsDefined()
  json: unknown;

  /** Default: every string value of `json`, joined by newlines. */
  @IsOptional()
  @IsString()
  text?: string;
}

export class HopUserDto {
  @IsUUID()
  id: string;

  @IsOptional()
  @IsEmail({ require_tld: false })
  email?: string;
}

/** One message hop to decide on: POLICY.md's input without the parts the relay fills in. */
export class DecideHopDto {
  @IsIn(PROTOCOLS)
  protocol: Protocol;

  @IsIn(DIRECTIONS)
  direction: MessageDirection;

  @ValidateNested()
  @Type(() => EndpointRefDto)
  @IsDefined()
  source: EndpointRefDto;

  @ValidateNested()
  @Type(() => EndpointRefDto)
  @IsDefined()
  sink: EndpointRefDto;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  method?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => ToolDto)
  tool?: ToolDto;

  @ValidateNested()
  @Type(() => MessageDto)
  @IsDefined()
  message: MessageDto;

  @IsOptional()
  @ValidateNested()
  @Type(() => HopUserDto)
  user?: HopUserDto;

  /** Default: now. */
  @IsOptional()
  @IsISO8601({ strict: true })
  time?: string;
}

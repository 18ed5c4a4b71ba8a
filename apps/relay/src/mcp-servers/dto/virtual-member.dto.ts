import {
  ArrayMaxSize,
  IsArray,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
} from 'class-validator';

import { PREFIX_PATTERN } from '../virtual/virtual-members';

/** D52: one registered server of a virtual one; absent lists expose every item. */
export class VirtualMemberDto {
  @IsUUID()
  serverId: string;

  /** Default: the member's name in lower-case letters, digits and `_`. */
  @IsOptional()
  @IsString()
  @Matches(PREFIX_PATTERN, {
    message: 'prefix must be lower-case letters and digits, single `_` between them (1-64)',
  })
  prefix?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  tools?: string[];

  /** Resource names or URIs (a template's URI template). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @Length(1, 2_000, { each: true })
  resources?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  prompts?: string[];
}

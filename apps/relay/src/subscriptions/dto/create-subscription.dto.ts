import { SUBSCRIPTION_KINDS, SubscriptionKind } from '@agp/contracts';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  ValidateIf,
} from 'class-validator';

/** The tool grant of D32: null (or absent) for every tool, else the names allowed. */
export class ToolGrantDto {
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsArray()
  @ArrayMaxSize(500)
  @ArrayUnique()
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  tools?: string[] | null;
}

export class CreateSubscriptionDto extends ToolGrantDto {
  @IsIn(SUBSCRIPTION_KINDS)
  kind: SubscriptionKind;

  @IsUUID()
  sourceId: string;

  @IsUUID()
  targetId: string;
}

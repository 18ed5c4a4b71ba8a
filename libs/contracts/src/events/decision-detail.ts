import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

/** A finding of a policy evaluation (D22 `detections`). */
export class DecisionDetection {
  @IsString()
  @MaxLength(100)
  kind: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  label?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  path?: string;
}

/** What a decision redacted (D22 `mask`). */
export class DecisionMask {
  @IsString()
  @MaxLength(500)
  path: string;

  @IsOptional()
  @IsString()
  @MaxLength(1_000)
  pattern?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  label?: string;
}

/** Why a policy decision came out as it did: reasons, detections and masks (D22, issue 5). */
export class DecisionDetail {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  reasons?: string[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => DecisionDetection)
  detections?: DecisionDetection[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => DecisionMask)
  masks?: DecisionMask[];
}

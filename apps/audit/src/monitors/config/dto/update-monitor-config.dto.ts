import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';

import { DETECTORS, Detector } from '@agp/contracts';

export class DetectorSettingsDto {
  @IsIn(DETECTORS)
  detector: Detector;

  @IsOptional() @IsBoolean() enabled?: boolean;
  @IsOptional() @IsInt() @Min(5) @Max(60) windowMinutes?: number;
  @IsOptional() @IsInt() @Min(1) @Max(28) lookbackDays?: number;
  @IsOptional() @IsNumber() @Min(1.1) @Max(1_000) spikeRatio?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(0.9) dropRatio?: number;
  @IsOptional() @IsNumber() @Min(1) @Max(50) zScore?: number;
  @IsOptional() @IsInt() @Min(1) @Max(1_000_000) minVolume?: number;
  @IsOptional() @IsInt() @Min(1) @Max(1_000_000) minBaselineVolume?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(100) minRatePct?: number;
  @IsOptional() @IsInt() @Min(1) @Max(365) dormantDays?: number;
}

export class UpdateMonitorConfigDto {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(24 * 30)
  dismissSuppressionHours?: number;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(DETECTORS.length)
  @ValidateNested({ each: true })
  @Type(() => DetectorSettingsDto)
  detectors?: DetectorSettingsDto[];
}

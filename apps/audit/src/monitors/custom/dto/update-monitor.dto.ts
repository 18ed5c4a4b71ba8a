import {
  AGGREGATIONS,
  Aggregation,
  GROUP_BYS,
  GroupBy,
  MONITOR_METRICS,
  MonitorMetric,
  SEVERITIES,
  Severity,
  TimeWindow,
  WINDOWS,
} from '@agp/contracts';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  ValidateIf,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

import {
  COMPARISONS,
  CUSTOM_MONITOR_TYPES,
  Comparison,
  CustomMonitorType,
} from '../monitor-definition';

/** A field may be absent; when present it is validated, null included (D12). */
const isPresent = (_object: object, value: unknown): boolean => value !== undefined;
const isSet = (_object: object, value: unknown): boolean => value !== undefined && value !== null;

const FINITE = { allowNaN: false, allowInfinity: false };

/** `PATCH /audit/v1/monitors/{monitorId}`: what is given replaces; the whole is checked again (M21). */
export class UpdateMonitorDto {
  @ValidateIf(isPresent)
  @IsString()
  @Length(1, 200)
  name?: string;

  @ValidateIf(isSet)
  @IsString()
  @MaxLength(2_000)
  description?: string | null;

  @ValidateIf(isPresent)
  @IsIn(CUSTOM_MONITOR_TYPES)
  monitorType?: CustomMonitorType;

  @ValidateIf(isPresent)
  @IsIn(MONITOR_METRICS)
  metric?: MonitorMetric;

  @ValidateIf(isPresent)
  @IsIn(AGGREGATIONS)
  aggregation?: Aggregation;

  @ValidateIf(isPresent)
  @IsIn(WINDOWS)
  window?: TimeWindow;

  @ValidateIf(isPresent)
  @IsIn(GROUP_BYS)
  groupBy?: GroupBy;

  /** Default ABOVE. */
  @ValidateIf(isPresent)
  @IsIn(COMPARISONS)
  comparison?: Comparison;

  /** THRESHOLD: the value; CHANGE: a percentage; OUTLIER: robust z-score. */
  @ValidateIf(isPresent)
  @IsNumber(FINITE)
  @Min(-1e12)
  @Max(1e12)
  threshold?: number;

  /** Default 0. */
  @ValidateIf(isPresent)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  minVolume?: number;

  /** Default MEDIUM. */
  @ValidateIf(isPresent)
  @IsIn(SEVERITIES)
  severity?: Severity;

  /** Default true. */
  @ValidateIf(isPresent)
  @IsBoolean()
  enabled?: boolean;
}

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
  IsOptional,
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
} from '../../engine/custom/monitor-definition';

const FINITE = { allowNaN: false, allowInfinity: false };

/** `POST /audit/v1/monitors` (issue 17); the combination rules are checked by the service (M21). */
export class CreateMonitorDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  @IsIn(CUSTOM_MONITOR_TYPES)
  monitorType: CustomMonitorType;

  @IsIn(MONITOR_METRICS)
  metric: MonitorMetric;

  @IsIn(AGGREGATIONS)
  aggregation: Aggregation;

  @IsIn(WINDOWS)
  window: TimeWindow;

  @IsIn(GROUP_BYS)
  groupBy: GroupBy;

  @IsOptional()
  @IsIn(COMPARISONS)
  comparison?: Comparison;

  @IsNumber(FINITE)
  @Min(-1e12)
  @Max(1e12)
  threshold: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  minVolume?: number;

  @IsOptional()
  @IsIn(SEVERITIES)
  severity?: Severity;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

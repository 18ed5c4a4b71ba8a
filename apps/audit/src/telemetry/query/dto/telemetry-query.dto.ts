import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

export const SPAN_STATUSES = ['UNSET', 'OK', 'ERROR'] as const;
export type SpanStatus = (typeof SPAN_STATUSES)[number];

export const SEVERITIES = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'] as const;
export type Severity = (typeof SEVERITIES)[number];

const asList = ({ value }: { value: unknown }): unknown =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** D54's filters common to `/spans` and `/logs`, newest first, by cursor (D31). */
export class TelemetryFilterQueryDto {
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{32}$/, { message: 'traceId must be 32 hex digits' })
  traceId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  service?: string;

  /** The agent whose token sent the item (A22). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  agentId?: string;

  /** Attribute equality, `key=value`, repeatable (A26). */
  @IsOptional()
  @Transform(asList)
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  @Matches(/^[^=]+=/, { each: true, message: 'each attr must be key=value' })
  attr?: string[];

  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 50;
}

export class ListSpansQueryDto extends TelemetryFilterQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(500)
  name?: string;

  @IsOptional()
  @IsIn(SPAN_STATUSES)
  status?: SpanStatus;
}

export class ListLogsQueryDto extends TelemetryFilterQueryDto {
  /** This severity and above (A26). */
  @IsOptional()
  @IsIn(SEVERITIES)
  severity?: Severity;
}

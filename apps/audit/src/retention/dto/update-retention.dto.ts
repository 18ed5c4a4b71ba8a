import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';

import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '../../events/event-families';

/** Days kept per event family (A2); a family left out keeps its default (A3). */
export class RetentionDaysDto {
  @IsOptional() @IsInt() @Min(MIN_RETENTION_DAYS) @Max(MAX_RETENTION_DAYS) TRAFFIC?: number;
  @IsOptional() @IsInt() @Min(MIN_RETENTION_DAYS) @Max(MAX_RETENTION_DAYS) DETECTION?: number;
  @IsOptional() @IsInt() @Min(MIN_RETENTION_DAYS) @Max(MAX_RETENTION_DAYS) PAYMENT?: number;
  @IsOptional() @IsInt() @Min(MIN_RETENTION_DAYS) @Max(MAX_RETENTION_DAYS) HITL?: number;
  @IsOptional() @IsInt() @Min(MIN_RETENTION_DAYS) @Max(MAX_RETENTION_DAYS) LIFECYCLE?: number;
  @IsOptional() @IsInt() @Min(MIN_RETENTION_DAYS) @Max(MAX_RETENTION_DAYS) MONITOR?: number;
}

/** `PUT /audit/v1/retention`: the whole policy (A3). */
export class UpdateRetentionDto {
  @ValidateNested()
  @Type(() => RetentionDaysDto)
  days: RetentionDaysDto;

  /** Keep message content (A5); off unless a tenant turns it on. */
  @IsOptional()
  @IsBoolean()
  captureContent?: boolean;
}

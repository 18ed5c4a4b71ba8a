import { EXECUTION_MODES, ExecutionMode } from '@agp/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { IsPackSchedule } from '../pack-schedule';
import { LiveDoubleDto } from './live-double.dto';

/** Operation 3's body (D15). */
export class CreateEvaluationPackDto {
  @IsString()
  @Length(1, 200)
  name: string;

  /** Default: the calling user. Must name a user of the caller's tenant. */
  @IsOptional()
  @IsUUID()
  ownerUserId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  /**
   * Beyond the specification (G13): runs the pack on a cron schedule in UTC (five fields, or
   * `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`), as SCHEDULE runs; `""` removes it.
   */
  @IsOptional()
  @MaxLength(100)
  @IsPackSchedule()
  schedule?: string;

  /** Beyond the specification (G14): a run with a failed evaluation, or that could not run, raises an alert. */
  @IsOptional()
  @IsBoolean()
  alertOnFailure?: boolean;

  /** Beyond the specification (G22): how SCHEDULE runs execute, SIMULATED (default) or LIVE. */
  @IsOptional()
  @IsIn(EXECUTION_MODES)
  scheduleExecutionMode?: ExecutionMode;

  /** Beyond the specification (G19): the sandbox doubles of LIVE runs, one per target at most; `[]` removes them. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => LiveDoubleDto)
  liveDoubles?: LiveDoubleDto[];
}

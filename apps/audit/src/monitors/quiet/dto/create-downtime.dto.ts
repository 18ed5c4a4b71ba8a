import { IsIn, IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';

import { RECURRENCES, Recurrence } from '../quiet.types';
import { QuietTargetDto } from './quiet-target.dto';

export class CreateDowntimeDto extends QuietTargetDto {
  @IsISO8601({ strict: true })
  startsAt: string;

  @IsInt()
  @Min(1)
  @Max(10_080)
  durationMinutes: number;

  @IsOptional()
  @IsIn(RECURRENCES)
  recurrence?: Recurrence;

  @IsOptional()
  @IsISO8601({ strict: true })
  repeatUntil?: string;
}

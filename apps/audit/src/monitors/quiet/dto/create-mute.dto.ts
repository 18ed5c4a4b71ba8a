import { IsISO8601, IsOptional } from 'class-validator';

import { QuietTargetDto } from './quiet-target.dto';

export class CreateMuteDto extends QuietTargetDto {
  /** Absent: until unmuted. Must lie in the future. */
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;
}

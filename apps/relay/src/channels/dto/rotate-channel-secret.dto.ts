import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** CH19: how long the previous secret keeps counting; a day when absent, at most a week. */
export class RotateChannelSecretDto {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(604_800)
  graceSeconds?: number;
}

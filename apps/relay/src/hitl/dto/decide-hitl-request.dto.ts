import { IsOptional, IsString, MaxLength } from 'class-validator';

/** D34: approve or reject, each with an optional note. */
export class DecideHitlRequestDto {
  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  note?: string;
}

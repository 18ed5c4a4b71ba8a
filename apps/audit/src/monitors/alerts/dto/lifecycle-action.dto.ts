import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The specification's "Monitor alert lifecycle action request". */
export class LifecycleActionDto {
  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  note?: string;
}

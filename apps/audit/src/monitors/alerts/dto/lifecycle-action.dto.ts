import { IsOptional, IsString, MaxLength } from 'class-validator';

export class LifecycleActionDto {
  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  note?: string;
}

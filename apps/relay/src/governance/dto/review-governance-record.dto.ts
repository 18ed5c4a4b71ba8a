import { IsOptional, IsString, MaxLength } from 'class-validator';

export class ReviewGovernanceRecordDto {
  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  note?: string;
}

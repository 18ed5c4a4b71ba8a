import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

import { VerifyQueryDto } from './verify-query.dto';

export class ListCheckpointsQueryDto extends VerifyQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  pageSize: number = 50;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

import { TimeWindow, WINDOWS } from '@agp/contracts';
import { IsIn, IsOptional } from 'class-validator';

export class DashboardQueryDto {
  @IsOptional()
  @IsIn(WINDOWS)
  window: TimeWindow = 'LAST_24H';
}

import { TimeWindow, WINDOWS } from '@agp/contracts';
import { IsIn, IsOptional } from 'class-validator';

export class DashboardQueryDto {
  /** The windows of the specification (custom-query `window`). */
  @IsOptional()
  @IsIn(WINDOWS)
  window: TimeWindow = 'LAST_24H';
}

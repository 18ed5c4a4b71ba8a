import { MONITOR_TYPES, MonitorType } from '@agp/contracts';
import { PageQueryDto } from '@agp/http';
import { IsIn, IsOptional } from 'class-validator';

export class ListMonitorsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(MONITOR_TYPES)
  monitorType?: MonitorType;
}

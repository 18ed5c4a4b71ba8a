import { PageQueryDto } from '@agp/http';
import { IsIn, IsOptional } from 'class-validator';

import { INCIDENT_STATUSES, IncidentStatus } from '../governance.types';

export class ListIncidentsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(INCIDENT_STATUSES)
  status?: IncidentStatus;
}

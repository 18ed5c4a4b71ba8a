import { PageQueryDto } from '@agp/http';
import { IsIn, IsOptional, IsUUID } from 'class-validator';

import { HITL_STATUSES, HitlStatus } from '../hitl.types';

export class ListHitlRequestsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(HITL_STATUSES)
  status?: HitlStatus;

  @IsOptional()
  @IsUUID()
  agentId?: string;
}

import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';

import { EventFilterQueryDto } from './event-filter-query.dto';

/** `GET /audit/v1/events`: D17's filters plus who, where, which policy and which conversation. */
export class ListEventsQueryDto extends EventFilterQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  actorType?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  actorId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  sourceType?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  sourceId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  sinkType?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  sinkId?: string;

  @IsOptional()
  @IsUUID()
  policyId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  correlationId?: string;

  /** D31: the audit event list pages by cursor; at most 100 a page, 50 by default. */
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

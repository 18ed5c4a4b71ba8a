import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '@agp/http';

import { CLIENT_STATUSES, ClientStatus } from '../client.types';

export class ListClientsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(CLIENT_STATUSES)
  status?: ClientStatus;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

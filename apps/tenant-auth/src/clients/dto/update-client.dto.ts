import { IsIn, IsOptional } from 'class-validator';
import { PatchType } from '@agp/http';

import { CLIENT_STATUSES, ClientStatus } from '../client.types';
import { CreateClientDto } from './create-client.dto';

/** A partial update (D12): the registration's fields (`null` for the name is a 400) and the status. */
export class UpdateClientDto extends PatchType(CreateClientDto) {
  /** SUSPENDED stops its tokens at once (identity.md I2). */
  @IsOptional()
  @IsIn(CLIENT_STATUSES)
  status?: ClientStatus;
}

import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { PermissionEntryDto } from '../../common/permission-entry.dto';
import { CLIENT_STATUSES, ClientStatus } from '../entities/client.entity';

export class UpdateClientDto {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  /** SUSPENDED stops its tokens at once (identity.md I2). */
  @IsOptional()
  @IsIn(CLIENT_STATUSES)
  status?: ClientStatus;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => PermissionEntryDto)
  permissions?: PermissionEntryDto[];
}

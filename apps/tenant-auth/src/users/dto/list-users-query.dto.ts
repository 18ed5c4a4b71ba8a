import { IsEmail, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { PageQueryDto } from '@agp/http';

import { USER_STATUSES, UserStatus } from '../user.types';

export class ListUsersQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(USER_STATUSES)
  status?: UserStatus;

  @IsOptional()
  @IsEmail()
  email?: string;

  /** Part of the e-mail or display name. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @IsOptional()
  @IsUUID()
  roleId?: string;
}

import { IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { PageQueryDto } from '@agp/http';

export class ListGroupsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  /** Groups this user belongs to. */
  @IsOptional()
  @IsUUID()
  memberId?: string;

  @IsOptional()
  @IsUUID()
  roleId?: string;
}

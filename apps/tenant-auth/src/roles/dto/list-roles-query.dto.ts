import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '@agp/http';

export class ListRolesQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  /** Roles that contain this entry, `ENTITY:PERMISSION`. */
  @IsOptional()
  @Matches(/^[A-Z_]+:(READ|WRITE|DELETE|ADMIN)$/)
  permission?: string;
}

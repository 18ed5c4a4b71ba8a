import { PageQueryDto } from '@agp/http';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class ListCatalogQueryDto extends PageQueryDto {
  /** Case-insensitive part of the name. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

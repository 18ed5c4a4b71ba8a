import { PageQueryDto } from '@agp/http';
import { IsOptional, IsString, Matches } from 'class-validator';

import { SET_NAME } from '../detection-pattern.types';

export class ListDetectionPatternsQueryDto extends PageQueryDto {
  /** Only the patterns of this set. */
  @IsOptional()
  @IsString()
  @Matches(SET_NAME)
  set?: string;
}

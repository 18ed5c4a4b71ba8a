import { PatternMode } from '@agp/guardrails';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';

import {
  LABEL,
  PATTERN_MODES,
  PATTERN_SCOPES,
  PatternScope,
  SET_NAME,
} from '../detection-pattern.types';

/** A PATCH of a pattern: absent fields are kept; the result is compiled again (GR13). */
export class UpdateDetectionPatternDto {
  @IsOptional()
  @IsString()
  @Matches(SET_NAME, {
    message: 'set must be 1 to 64 of a-z, 0-9, _ . - starting with a letter or digit',
  })
  set?: string;

  @IsOptional()
  @IsString()
  @Matches(LABEL, { message: 'label must be 1 to 64 letters, digits or _ starting with a letter' })
  label?: string;

  @IsOptional()
  @IsString()
  @Length(1, 1000)
  pattern?: string;

  @IsOptional()
  @IsString()
  @Matches(/^(?!.*(.).*\1)[ms]{0,2}$/, { message: 'flags may only be m and s, each at most once' })
  flags?: string;

  @IsOptional()
  @IsIn(PATTERN_MODES)
  mode?: PatternMode;

  @IsOptional()
  @IsIn(PATTERN_SCOPES)
  scope?: PatternScope;
}

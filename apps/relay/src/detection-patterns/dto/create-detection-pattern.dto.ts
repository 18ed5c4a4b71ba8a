import { PatternMode } from '@agp/guardrails';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';

import {
  LABEL,
  PATTERN_MODES,
  PATTERN_SCOPES,
  PatternScope,
  SET_NAME,
} from '../detection-pattern.types';

/**
 * D53 `{set, label, pattern, flags?, mode?, scope?}`. Whether the pattern runs in linear time is
 * asked of the engine itself (GR13); its refusal is a 400 naming the reason.
 */
export class CreateDetectionPatternDto {
  /** The name a policy passes to `agp.detect.patterns(text, set)`. */
  @IsString()
  @Matches(SET_NAME, {
    message: 'set must be 1 to 64 of a-z, 0-9, _ . - starting with a letter or digit',
  })
  set: string;

  /** The findings' `type`. */
  @IsString()
  @Matches(LABEL, { message: 'label must be 1 to 64 letters, digits or _ starting with a letter' })
  label: string;

  /** A JavaScript regular expression that V8's linear-time engine accepts (GR13). */
  @IsString()
  @Length(1, 1000)
  pattern: string;

  /** `m` and/or `s` (the linear-time engine has no `i`, `u` or `d`). */
  @IsOptional()
  @IsString()
  @Matches(/^(?!.*(.).*\1)[ms]{0,2}$/, { message: 'flags may only be m and s, each at most once' })
  flags?: string;

  @IsOptional()
  @IsIn(PATTERN_MODES)
  mode?: PatternMode;

  /** GR15: ALL (default), REQUEST or RESPONSE hops. */
  @IsOptional()
  @IsIn(PATTERN_SCOPES)
  scope?: PatternScope;
}

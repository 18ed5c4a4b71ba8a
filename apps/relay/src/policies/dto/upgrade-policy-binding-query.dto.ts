import { IsOptional, Matches } from 'class-validator';

import { VERSION_PATTERN } from '../version-ordering';

/** Operation 7's query (D18). */
export class UpgradePolicyBindingQueryDto {
  @IsOptional()
  @Matches(VERSION_PATTERN, { message: 'targetVersion must be 1 to 4 dot-separated numbers' })
  targetVersion?: string;
}

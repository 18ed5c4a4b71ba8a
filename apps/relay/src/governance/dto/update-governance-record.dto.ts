import { IsString, IsUUID, Length, ValidateIf } from 'class-validator';

import { isSet } from '../../common/patch-fields';

/** PATCH: an absent field is kept, `null` clears it. */
export class UpdateGovernanceRecordDto {
  @ValidateIf(isSet)
  @IsString()
  @Length(1, 64)
  riskTier?: string | null;

  @ValidateIf(isSet)
  @IsUUID()
  ownerUserId?: string | null;
}

import { PatchType, PickType } from '@agp/http';

import { CreateGovernanceRecordDto } from './create-governance-record.dto';

/** PATCH: an absent field is kept, `null` clears it (both are optional). */
export class UpdateGovernanceRecordDto extends PatchType(
  PickType(CreateGovernanceRecordDto, ['riskTier', 'ownerUserId'] as const),
) {}

import { PatchType } from '@agp/http';

import { CreatePolicyGroupDto } from './create-policy-group.dto';

/** A partial update: absent or `null` keeps an optional field; `null` for the name is a 400 (D12). */
export class UpdatePolicyGroupDto extends PatchType(CreatePolicyGroupDto) {}

import { PatchType, PickType } from '@agp/http';

import { CreatePolicyBindingDto } from './create-policy-binding.dto';

/**
 * The window and priority of a binding; `null` validTo removes the end of the window. Moving a
 * binding to another version is operation 7 only (D18).
 */
export class UpdatePolicyBindingDto extends PatchType(
  PickType(CreatePolicyBindingDto, ['priority', 'validFrom', 'validTo'] as const),
) {}

import { PatchType } from '@agp/http';

import { CreateRoleDto } from './create-role.dto';

/** A partial update (D12): absent keeps a field; `null` for the name or permissions is a 400. */
export class UpdateRoleDto extends PatchType(CreateRoleDto) {}

import { PatchType } from '@agp/http';

import { CreateGroupDto } from './create-group.dto';

/** A partial update (D12): absent keeps a field; `null` for the name is a 400. */
export class UpdateGroupDto extends PatchType(CreateGroupDto) {}

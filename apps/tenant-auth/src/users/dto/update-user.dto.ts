import { OmitType, PatchType } from '@agp/http';

import { CreateUserDto } from './create-user.dto';

/** A partial update (D12) of everything but the e-mail (I2). */
export class UpdateUserDto extends PatchType(OmitType(CreateUserDto, ['email'] as const)) {}

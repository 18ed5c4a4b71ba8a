import { OmitType, PatchType } from '@agp/http';

import { CreateUserDto } from './create-user.dto';

/**
 * A partial update (D12) of everything but the e-mail: DISABLED stops the user's tokens at once
 * (identity.md I2); `null` for the display name is a 400.
 */
export class UpdateUserDto extends PatchType(OmitType(CreateUserDto, ['email'] as const)) {}

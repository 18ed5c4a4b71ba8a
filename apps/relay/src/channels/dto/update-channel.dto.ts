import { PatchType } from '@agp/http';

import { CreateChannelDto } from './create-channel.dto';

/** A partial update: absent keeps a field; `null` clears the optional ones only (D12). */
export class UpdateChannelDto extends PatchType(CreateChannelDto) {}

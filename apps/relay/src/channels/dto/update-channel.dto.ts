import { IsIn, IsString, Length, MaxLength, ValidateIf } from 'class-validator';

import { isPresent, isSet } from '../../common/patch-fields';
import { CHANNEL_KINDS, ChannelKind } from '../channels.constants';

export class UpdateChannelDto {
  @ValidateIf(isPresent)
  @IsString()
  @Length(1, 200)
  name?: string;

  @ValidateIf(isSet)
  @IsString()
  @MaxLength(2_000)
  description?: string | null;

  @ValidateIf(isPresent)
  @IsIn(CHANNEL_KINDS)
  kind?: ChannelKind;
}

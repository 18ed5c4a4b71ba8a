import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';

import { CHANNEL_KINDS, ChannelKind } from '../channels.constants';

export class CreateChannelDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  @IsIn(CHANNEL_KINDS)
  kind: ChannelKind;
}

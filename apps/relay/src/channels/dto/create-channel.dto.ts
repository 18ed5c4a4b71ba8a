import { IsIn, IsObject, IsOptional, IsString, Length, MaxLength } from 'class-validator';

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

  /**
   * D56: SLACK `{signingSecret, botToken, apiBaseUrl?}`, WEBHOOK `{url}` (the `whsec_` signing
   * secret is answered once), WEB `{allowedOrigins}` (the channel key is answered once). Secrets
   * are write-only (D37); other kinds take no settings.
   */
  @IsOptional()
  @IsObject()
  config?: Record<string, unknown>;
}

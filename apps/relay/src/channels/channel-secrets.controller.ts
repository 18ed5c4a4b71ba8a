import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { uuidParam } from '@agp/http';

import { CHANNELS_CATALOG } from './channels.constants';
import { ChannelSecretRotation, ChannelsService } from './channels.service';
import { RotateChannelSecretDto } from './dto/rotate-channel-secret.dto';

/** CH19: a WEBHOOK channel's `whsec_` or a WEB channel's key, replaced with a grace period. */
@Controller('relay/v1/channels/:channelId/secret-rotations')
export class ChannelSecretsController {
  constructor(@Inject(CHANNELS_CATALOG) private readonly channels: ChannelsService) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('CHANNELS', 'WRITE')
  rotate(
    @Ctx() ctx: RequestContext,
    @Param('channelId', uuidParam('channelId')) channelId: string,
    @Body() dto: RotateChannelSecretDto,
  ): Promise<ChannelSecretRotation> {
    return this.channels.rotateSecret(ctx, channelId, dto.graceSeconds ?? 86_400);
  }
}

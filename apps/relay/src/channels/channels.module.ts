import { Module } from '@nestjs/common';

import { McpServersModule } from '../mcp-servers/mcp-servers.module';
import { ChannelSecretsController } from './channel-secrets.controller';
import { ChannelsController } from './channels.controller';
import { channelsProvider } from './channels.service';

/** D56, D37: no audit type names channel changes, so they are ADMIN_CHANGE. */
@Module({
  imports: [McpServersModule],
  controllers: [ChannelsController, ChannelSecretsController],
  providers: [channelsProvider],
})
export class ChannelsModule {}

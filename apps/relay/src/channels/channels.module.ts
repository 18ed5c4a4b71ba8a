import { Module } from '@nestjs/common';

import { McpServersModule } from '../mcp-servers/mcp-servers.module';
import { ChannelsController } from './channels.controller';
import { channelsProvider } from './channels.service';

/**
 * Channels of the registry: CRUD under /relay/v1/channels with each kind's settings and
 * write-only secrets (D56, D37); no audit type names channel changes, so they are ADMIN_CHANGE.
 */
@Module({
  imports: [McpServersModule],
  controllers: [ChannelsController],
  providers: [channelsProvider],
})
export class ChannelsModule {}

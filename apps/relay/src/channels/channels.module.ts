import { Module } from '@nestjs/common';

import { catalogProvider } from '../registry/catalog.provider';
import { CHANNELS_CATALOG } from './channels.constants';
import { ChannelsController } from './channels.controller';

/** Channels of the registry: CRUD under /relay/v1/channels (no audit type names channel changes). */
@Module({
  controllers: [ChannelsController],
  providers: [
    catalogProvider(
      CHANNELS_CATALOG,
      { table: 'channels', columns: { name: 'name', description: 'description', kind: 'kind' } },
      { noun: 'channel', partyType: 'CHANNEL' },
    ),
  ],
})
export class ChannelsModule {}

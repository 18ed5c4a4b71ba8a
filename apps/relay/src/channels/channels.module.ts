import { Module } from '@nestjs/common';
import { Database } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CatalogRepository } from '../registry/catalog.repository';
import { CatalogService } from '../registry/catalog.service';
import { CHANNELS_CATALOG } from './channels.constants';
import { ChannelsController } from './channels.controller';

const repository = new CatalogRepository({
  table: 'channels',
  columns: { name: 'name', description: 'description', kind: 'kind' },
});

/** Channels of the registry: CRUD under /relay/v1/channels (no audit type names channel changes). */
@Module({
  controllers: [ChannelsController],
  providers: [
    {
      provide: CHANNELS_CATALOG,
      inject: [RELAY_DATABASE, RELAY_OUTBOX],
      useFactory: (database: Database, outbox: EventOutbox) =>
        new CatalogService(database, outbox, repository, { noun: 'channel', partyType: 'CHANNEL' }),
    },
  ],
})
export class ChannelsModule {}

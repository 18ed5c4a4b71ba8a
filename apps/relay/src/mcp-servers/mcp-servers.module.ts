import { Module } from '@nestjs/common';
import { Database } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CatalogRepository } from '../registry/catalog.repository';
import { CatalogService } from '../registry/catalog.service';
import { MCP_SERVERS_CATALOG } from './mcp-servers.constants';
import { McpServersController } from './mcp-servers.controller';

const repository = new CatalogRepository({
  table: 'mcp_servers',
  columns: {
    name: 'name',
    description: 'description',
    url: 'url',
    transport: 'transport',
    protocolVersion: 'protocol_version',
  },
});

/** MCP servers of the registry: CRUD under /relay/v1/mcp-servers, MCP_LIFECYCLE recorded. */
@Module({
  controllers: [McpServersController],
  providers: [
    {
      provide: MCP_SERVERS_CATALOG,
      inject: [RELAY_DATABASE, RELAY_OUTBOX],
      useFactory: (database: Database, outbox: EventOutbox) =>
        new CatalogService(database, outbox, repository, {
          noun: 'MCP server',
          lifecycleEvent: 'MCP_LIFECYCLE',
          partyType: 'MCP_SERVER',
        }),
    },
  ],
})
export class McpServersModule {}

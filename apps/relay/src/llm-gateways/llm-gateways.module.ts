import { Module } from '@nestjs/common';
import { Database } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CatalogRepository } from '../registry/catalog.repository';
import { CatalogService } from '../registry/catalog.service';
import { LLM_GATEWAYS_CATALOG } from './llm-gateways.constants';
import { LlmGatewaysController } from './llm-gateways.controller';
import { LlmGatewaysService } from './llm-gateways.service';

const repository = new CatalogRepository({
  table: 'llm_gateways',
  columns: {
    name: 'name',
    description: 'description',
    providers: 'provider_ids',
    modelMap: 'model_map',
  },
  lists: ['providers'],
  objects: ['modelMap'],
});

/**
 * LLM gateways of the registry (D39: providers in failover order, a model map): CRUD under
 * /relay/v1/llm-gateways, LLM_LIFECYCLE recorded.
 */
@Module({
  controllers: [LlmGatewaysController],
  providers: [
    {
      provide: LLM_GATEWAYS_CATALOG,
      inject: [RELAY_DATABASE, RELAY_OUTBOX],
      useFactory: (database: Database, outbox: EventOutbox) =>
        new CatalogService(database, outbox, repository, {
          noun: 'LLM gateway',
          lifecycleEvent: 'LLM_LIFECYCLE',
          partyType: 'LLM_GATEWAY',
        }),
    },
    LlmGatewaysService,
  ],
})
export class LlmGatewaysModule {}

import { Module } from '@nestjs/common';

import { catalogProvider } from '../registry/catalog.provider';
import { LLM_GATEWAYS_CATALOG } from './llm-gateways.constants';
import { LlmGatewaysController } from './llm-gateways.controller';
import { LlmGatewaysRepository } from './llm-gateways.repository';
import { LlmGatewaysService } from './llm-gateways.service';

/** D39: providers in failover order and a model map; LLM_LIFECYCLE recorded. */
@Module({
  controllers: [LlmGatewaysController],
  providers: [
    catalogProvider(
      LLM_GATEWAYS_CATALOG,
      {
        table: 'llm_gateways',
        columns: {
          name: 'name',
          description: 'description',
          providers: 'provider_ids',
          modelMap: 'model_map',
        },
        lists: ['providers'],
        objects: ['modelMap'],
      },
      { noun: 'LLM gateway', lifecycleEvent: 'LLM_LIFECYCLE', partyType: 'LLM_GATEWAY' },
    ),
    LlmGatewaysService,
    LlmGatewaysRepository,
  ],
})
export class LlmGatewaysModule {}

import { Module } from '@nestjs/common';

import { catalogProvider } from '../registry/catalog.provider';
import { LLM_GATEWAYS_CATALOG } from './llm-gateways.constants';
import { LlmGatewaysController } from './llm-gateways.controller';

/** LLM gateways of the registry: CRUD under /relay/v1/llm-gateways, LLM_LIFECYCLE recorded. */
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
          provider: 'provider',
          baseUrl: 'base_url',
          model: 'model',
        },
      },
      { noun: 'LLM gateway', lifecycleEvent: 'LLM_LIFECYCLE', partyType: 'LLM_GATEWAY' },
    ),
  ],
})
export class LlmGatewaysModule {}

import { Module } from '@nestjs/common';
import { Tx } from '@agp/database';

import { LlmGatewaysRepository } from '../llm-gateways/llm-gateways.repository';
import { McpServersModule } from '../mcp-servers/mcp-servers.module';
import { CatalogEntry } from '../registry/catalog.repository';
import { RegistryErrorCode, RegistryException } from '../registry/registry.exception';
import { upstreamCatalogProvider } from '../registry/upstream-catalog.service';
import { LLM_PROVIDERS_CATALOG } from './llm-providers.constants';
import { LlmProvidersController } from './llm-providers.controller';

const gateways = new LlmGatewaysRepository();

/** T16: a provider a gateway routes to cannot go (409 naming the gateways); take it out first. */
async function refuseWhileRouted(tx: Tx, tenantId: string, entry: CatalogEntry): Promise<void> {
  const names = (await gateways.routingTo(tx, tenantId, entry.id)).join(', ');
  if (names) {
    throw new RegistryException(
      RegistryErrorCode.InUse,
      `LLM provider ${entry.name} is used by the LLM gateways ${names}; remove it from them first`,
    );
  }
}

/** LLM providers of the registry (D39): CRUD under /relay/v1/llm-providers, LLM_LIFECYCLE recorded. */
@Module({
  imports: [McpServersModule],
  controllers: [LlmProvidersController],
  providers: [
    upstreamCatalogProvider(
      LLM_PROVIDERS_CATALOG,
      {
        table: 'llm_providers',
        columns: {
          name: 'name',
          description: 'description',
          baseUrl: 'base_url',
          apiKey: 'api_key_ciphertext',
          models: 'models',
          timeoutMs: 'timeout_ms',
        },
        integers: ['timeoutMs'],
        lists: ['models'],
        // D37: the sealed key never leaves the repository; responses say only that one is set.
        writeOnly: ['apiKey'],
      },
      {
        noun: 'LLM provider',
        lifecycleEvent: 'LLM_LIFECYCLE',
        partyType: 'LLM_PROVIDER',
        idDetail: 'llmProviderId',
        beforeRemove: refuseWhileRouted,
      },
      // D37, D39: the base URL checked against the egress rules, the API key sealed.
      { url: 'baseUrl', secret: 'apiKey' },
    ),
  ],
})
export class LlmProvidersModule {}

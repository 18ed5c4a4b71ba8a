import { catalogController } from '../registry/catalog.controller';
import { CreateLlmProviderDto } from './dto/create-llm-provider.dto';
import { UpdateLlmProviderDto } from './dto/update-llm-provider.dto';
import { LLM_PROVIDERS_CATALOG } from './llm-providers.constants';

/**
 * CRUD of LLM providers under /relay/v1/llm-providers (the registry's one shape), under the
 * LLM_GATEWAY permission as the gateways are, answered by the service that checks the base URL
 * against the egress rules and seals the API key (D37, D39).
 */
export const LlmProvidersController = catalogController({
  name: 'LlmProvidersController',
  path: 'relay/v1/llm-providers',
  idParam: 'providerId',
  permission: 'LLM_GATEWAY',
  operations: LLM_PROVIDERS_CATALOG,
  createDto: CreateLlmProviderDto,
  updateDto: UpdateLlmProviderDto,
});

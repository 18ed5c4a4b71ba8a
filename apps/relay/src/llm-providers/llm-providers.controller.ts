import { catalogController } from '../registry/catalog.controller';
import { CreateLlmProviderDto } from './dto/create-llm-provider.dto';
import { UpdateLlmProviderDto } from './dto/update-llm-provider.dto';
import { LLM_PROVIDERS_CATALOG } from './llm-providers.constants';

/** D37, D39: under LLM_GATEWAY permission, as the gateways are. */
export const LlmProvidersController = catalogController({
  name: 'LlmProvidersController',
  path: 'relay/v1/llm-providers',
  idParam: 'providerId',
  permission: 'LLM_GATEWAY',
  operations: LLM_PROVIDERS_CATALOG,
  createDto: CreateLlmProviderDto,
  updateDto: UpdateLlmProviderDto,
});

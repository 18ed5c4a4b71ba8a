import { catalogController } from '../registry/catalog.controller';
import { CreateLlmGatewayDto } from './dto/create-llm-gateway.dto';
import { UpdateLlmGatewayDto } from './dto/update-llm-gateway.dto';
import { LLM_GATEWAYS_CATALOG } from './llm-gateways.constants';

/** CRUD of LLM gateways under /relay/v1/llm-gateways (the registry's one shape). */
export const LlmGatewaysController = catalogController({
  name: 'LlmGatewaysController',
  path: 'relay/v1/llm-gateways',
  idParam: 'gatewayId',
  permission: 'LLM_GATEWAY',
  operations: LLM_GATEWAYS_CATALOG,
  createDto: CreateLlmGatewayDto,
  updateDto: UpdateLlmGatewayDto,
});

import { catalogController } from '../registry/catalog.controller';
import { CreateLlmGatewayDto } from './dto/create-llm-gateway.dto';
import { UpdateLlmGatewayDto } from './dto/update-llm-gateway.dto';
import { LlmGatewaysService } from './llm-gateways.service';

/** D39: the service checks each provider is the tenant's. */
export const LlmGatewaysController = catalogController({
  name: 'LlmGatewaysController',
  path: 'relay/v1/llm-gateways',
  idParam: 'gatewayId',
  permission: 'LLM_GATEWAY',
  operations: LlmGatewaysService,
  createDto: CreateLlmGatewayDto,
  updateDto: UpdateLlmGatewayDto,
});

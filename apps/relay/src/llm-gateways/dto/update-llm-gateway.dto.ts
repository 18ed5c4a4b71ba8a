import { PatchType } from '@agp/http';

import { CreateLlmGatewayDto } from './create-llm-gateway.dto';

/**
 * A partial update: absent keeps a field; `null` clears the optional ones only (D12). A new
 * `providers` list replaces the old one whole, in its order (D39).
 */
export class UpdateLlmGatewayDto extends PatchType(CreateLlmGatewayDto) {}

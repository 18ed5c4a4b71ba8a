import { PatchType } from '@agp/http';

import { CreateLlmGatewayDto } from './create-llm-gateway.dto';

/** A partial update: absent keeps a field; `null` clears the optional ones only (D12). */
export class UpdateLlmGatewayDto extends PatchType(CreateLlmGatewayDto) {}

import { PatchType } from '@agp/http';

import { CreateLlmProviderDto } from './create-llm-provider.dto';

/** A partial update: absent keeps a field; `null` clears the optional ones (the key, the models). */
export class UpdateLlmProviderDto extends PatchType(CreateLlmProviderDto) {}

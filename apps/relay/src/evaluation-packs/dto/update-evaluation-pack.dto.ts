import { PatchType } from '@agp/http';

import { CreateEvaluationPackDto } from './create-evaluation-pack.dto';

/** A partial update: absent or `null` keeps an optional field; `null` for the name is a 400 (D12). */
export class UpdateEvaluationPackDto extends PatchType(CreateEvaluationPackDto) {}

import { ResponseSchemas } from '@agp/http';

import schemas from './response-schemas.json';

// What each handler of audit answers, generated from its return type by `npm run openapi` (F24);
// response-schemas.spec.ts fails when it is not current.
export const AUDIT_RESPONSE_SCHEMAS: ResponseSchemas = schemas;

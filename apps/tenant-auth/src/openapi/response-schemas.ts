import { ResponseSchemas } from '@agp/http';

import schemas from './response-schemas.json';

// What each handler of tenant-auth answers, generated from its return type by `npm run openapi`
// (F24); response-schemas.spec.ts fails when it is not current.
export const TENANT_AUTH_RESPONSE_SCHEMAS: ResponseSchemas = schemas;

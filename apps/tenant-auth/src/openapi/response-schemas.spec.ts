import { join } from 'node:path';

import { generateResponseSchemas } from '@agp/http/openapi-generator';

import { TENANT_AUTH_RESPONSE_SCHEMAS } from './response-schemas';

describe('TENANT_AUTH_RESPONSE_SCHEMAS', () => {
  it('should be what the handlers return now (else run `npm run openapi -w apps/tenant-auth`)', () => {
    const generated = generateResponseSchemas(join(__dirname, '..', '..', 'tsconfig.json'));

    expect(generated).toEqual(TENANT_AUTH_RESPONSE_SCHEMAS);
  }, 180_000);
});

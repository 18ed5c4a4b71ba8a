import { join } from 'node:path';

import { generateResponseSchemas } from '@agp/http/openapi-generator';

import { AUDIT_RESPONSE_SCHEMAS } from './response-schemas';

describe('AUDIT_RESPONSE_SCHEMAS', () => {
  it('should be what the handlers return now (else run `npm run openapi -w apps/audit`)', () => {
    const generated = generateResponseSchemas(join(__dirname, '..', '..', 'tsconfig.json'));

    expect(generated).toEqual(AUDIT_RESPONSE_SCHEMAS);
  }, 180_000);
});

import { join } from 'node:path';

import { generateResponseSchemas } from '@agp/http/openapi-generator';

import { RELAY_RESPONSE_SCHEMAS } from './response-schemas';

describe('RELAY_RESPONSE_SCHEMAS', () => {
  it('should be what the handlers return now (else run `npm run openapi -w apps/relay`)', () => {
    const generated = generateResponseSchemas(join(__dirname, '..', '..', 'tsconfig.json'));

    expect(generated).toEqual(RELAY_RESPONSE_SCHEMAS);
  }, 180_000);
});

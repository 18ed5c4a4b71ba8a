#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { RESPONSE_SCHEMAS_FILE, generateResponseSchemas } from './response-schemas.generator';

/**
 * `agp-openapi-responses`, run in an application's folder (`npm run openapi -w apps/relay`):
 * writes the schemas of its handlers' answers (F24) to `src/openapi/response-schemas.json`.
 */
const schemas = generateResponseSchemas(resolve('tsconfig.json'));
writeFileSync(resolve(RESPONSE_SCHEMAS_FILE), `${JSON.stringify(schemas, null, 2)}\n`);
process.stdout.write(
  `${RESPONSE_SCHEMAS_FILE}: ${Object.keys(schemas.operations).length} answers, ` +
    `${Object.keys(schemas.schemas).length} named types\n`,
);

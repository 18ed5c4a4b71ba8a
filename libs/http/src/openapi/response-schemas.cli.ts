#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { RESPONSE_SCHEMAS_FILE, generateResponseSchemas } from './response-schemas.generator';

// `npm run openapi -w apps/<app>` (F24).
const schemas = generateResponseSchemas(resolve('tsconfig.json'));
writeFileSync(resolve(RESPONSE_SCHEMAS_FILE), `${JSON.stringify(schemas, null, 2)}\n`);
process.stdout.write(
  `${RESPONSE_SCHEMAS_FILE}: ${Object.keys(schemas.operations).length} answers, ` +
    `${Object.keys(schemas.schemas).length} named types\n`,
);

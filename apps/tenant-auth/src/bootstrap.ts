import 'reflect-metadata';

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { loadEnvOrExit } from '@agp/config';

import { howToGetAToken, writeBootstrapFile } from './bootstrap/bootstrap-file';
import { openCommands } from './cli/standalone';
import { TenantAuthEnv } from './config/tenant-auth.env';

const USAGE =
  'usage: npm run bootstrap -w @agp/tenant-auth -- --tenant <slug> --email <e-mail> [--name <tenant name>] [--out <file>]';

/** D11: creates a tenant and its first administrator (all entities ADMIN). */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenant: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (!values.tenant || !values.email || !/^[a-z][a-z0-9-]{1,62}$/.test(values.tenant)) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  const env = loadEnvOrExit(TenantAuthEnv);
  if (!env.DATABASE_URL) {
    process.stderr.write(
      'invalid configuration: DATABASE_URL is required (the embedded default bootstraps itself on first start)\n',
    );
    process.exit(1);
  }
  const out = resolve(values.out ?? `bootstrap-${values.tenant}.json`);
  const commands = await openCommands({ ...env, DATABASE_URL: env.DATABASE_URL });
  try {
    const result = await commands.bootstrap.bootstrap({
      slug: values.tenant,
      name: values.name,
      email: values.email,
    });
    writeBootstrapFile(out, result);
    process.stdout.write(
      [
        `tenant ${result.tenant} (${result.tenantId}) created${result.isOperator ? ' as the operator tenant' : ''}`,
        `administrator ${result.email}; the password is in ${out} (mode 0600)`,
        `get a token: ${howToGetAToken(result.tokenUrl, result.tenant, result.email, out)}`,
        '',
      ].join('\n'),
    );
  } finally {
    await commands.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bootstrap failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});

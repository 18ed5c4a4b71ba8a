import 'reflect-metadata';

import { loadEnvOrExit } from '@agp/config';

import { openCommands } from './cli/standalone';
import { TenantAuthEnv } from './config/tenant-auth.env';

/** D9: replaces the signing key now; the retired one stays in the JWKS until its tokens expire. */
async function main(): Promise<void> {
  const env = loadEnvOrExit(TenantAuthEnv);
  if (!env.DATABASE_URL) {
    process.stderr.write('invalid configuration: DATABASE_URL is required\n');
    process.exit(1);
  }
  const commands = await openCommands({ ...env, DATABASE_URL: env.DATABASE_URL });
  try {
    const kid = await commands.keys.rotate('command');
    process.stdout.write(
      `signing key rotated: new kid ${kid}; replicas sign with it within 30 s\n`,
    );
  } finally {
    await commands.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `key rotation failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});

import { resolve } from 'node:path';

import { INestApplicationContext } from '@nestjs/common';
import { ROOT_LOGGER } from '@agp/http';
import { Logger } from 'pino';

import { TenantAuthEnv } from '../config/tenant-auth.env';
import { bootstrapFileExists, writeBootstrapFile } from './bootstrap-file';
import { BootstrapService } from './bootstrap.service';

export const DEFAULT_TENANT = 'default';
export const DEFAULT_ADMIN_EMAIL = 'admin@default.local';

/** Logs where the file is, never what is in it (D11). */
export async function bootstrapDefaultTenant(
  app: INestApplicationContext,
  env: Pick<TenantAuthEnv, 'DATA_DIR'>,
): Promise<string | undefined> {
  const bootstrap = app.get(BootstrapService);
  const file = resolve(env.DATA_DIR, 'bootstrap.json');
  if ((await bootstrap.hasTenants()) || bootstrapFileExists(file)) {
    return undefined;
  }
  const result = await bootstrap.bootstrap({
    slug: DEFAULT_TENANT,
    name: 'Default',
    email: DEFAULT_ADMIN_EMAIL,
  });
  writeBootstrapFile(file, result);
  app
    .get<Logger>(ROOT_LOGGER)
    .info(
      { file, tenant: result.tenant, email: result.email },
      'default tenant created; credentials written to the bootstrap file',
    );
  return file;
}

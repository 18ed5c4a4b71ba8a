import { Database, createSchemaDataSource, migrate } from '@agp/database';
import { EventOutbox } from '@agp/messaging';
import pino from 'pino';

import { BootstrapService } from '../bootstrap/bootstrap.service';
import { keyEncryptionSealer } from '../bootstrap/key-encryption-secret';
import { TenantAuthEnv } from '../config/tenant-auth.env';
import { tenant_authDataSourceOptions } from '../database/data-source';
import { SigningKeysRepository } from '../keys/signing-keys.repository';
import { SigningKeysService } from '../keys/signing-keys.service';
import { RolesRepository } from '../roles/roles.repository';
import { TenantProvisioner } from '../tenants/tenant-provisioner';
import { TenantsRepository } from '../tenants/tenants.repository';
import { UsersRepository } from '../users/users.repository';

export interface Commands {
  bootstrap: BootstrapService;
  keys: SigningKeysService;
  close(): Promise<void>;
}

/** The services a command needs, without an HTTP server (D5). */
export async function openCommands(
  env: TenantAuthEnv & { DATABASE_URL: string },
): Promise<Commands> {
  const options = tenant_authDataSourceOptions(env.DATABASE_URL);
  const dataSource = createSchemaDataSource({ ...options, poolSize: 2 });
  await dataSource.initialize();
  await migrate(dataSource, options.schema);
  const database = new Database(dataSource, options.schema);
  const tenants = new TenantsRepository();
  const provisioner = new TenantProvisioner(
    new EventOutbox(database),
    tenants,
    new RolesRepository(),
    new UsersRepository(),
  );
  const sealer = keyEncryptionSealer(env.KEY_ENCRYPTION_SECRET, env.DATA_DIR);
  const logger = pino({ level: 'warn' });
  return {
    bootstrap: new BootstrapService(database, env, tenants, provisioner),
    keys: new SigningKeysService(database, env, sealer, logger, new SigningKeysRepository()),
    close: () => database.close(),
  };
}

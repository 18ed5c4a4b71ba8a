import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@agp/database';
import { MessagingModule } from '@agp/messaging';

import { TenantAuthEnv } from './config/tenant-auth.env';
import { tenant_authDataSourceOptions } from './database/data-source';
import { TENANT_AUTH_DATABASE, TENANT_AUTH_SERVICE } from './database/tokens';

/**
 * The tenant-auth service: the unit that both its own process (main.ts) and the one-process runner
 * import (D2). Its routes live under /tenant-auth/... (D1); its data in the `tenant_auth` schema (D4).
 */
@Module({})
export class TenantAuthModule {
  static forRoot(env: TenantAuthEnv & { DATABASE_URL: string }): DynamicModule {
    return {
      module: TenantAuthModule,
      imports: [
        DatabaseModule.forRoot({ token: TENANT_AUTH_DATABASE, ...tenant_authDataSourceOptions(env.DATABASE_URL) }),
        MessagingModule.forService({ service: TENANT_AUTH_SERVICE, databaseToken: TENANT_AUTH_DATABASE }),
      ],
    };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@agp/database';
import { MessagingModule } from '@agp/messaging';

import { BootstrapModule } from './bootstrap/bootstrap.module';
import { keyEncryptionSealer } from './bootstrap/key-encryption-secret';
import { ClientsModule } from './clients/clients.module';
import { TENANT_AUTH_ENV, TenantAuthEnv } from './config/tenant-auth.env';
import { tenant_authDataSourceOptions } from './database/data-source';
import { TENANT_AUTH_DATABASE, TENANT_AUTH_SERVICE } from './database/tokens';
import { GroupsModule } from './groups/groups.module';
import { DomainVerifier } from './identity-providers/domain-verification';
import { IdentityProvidersModule } from './identity-providers/identity-providers.module';
import { IdentityQueriesModule } from './identity-queries/identity-queries.module';
import { DOMAIN_VERIFIER } from './identity-providers/identity-providers.service';
import { KeysModule } from './keys/keys.module';
import { SECRET_SEALER } from './keys/signing-keys.service';
import { PermissionsModule } from './permissions/permissions.module';
import { RevocationsModule } from './revocations/revocations.module';
import { RolesModule } from './roles/roles.module';
import { tenantAuthJobs } from './tenant-auth-jobs';
import { TenantsModule } from './tenants/tenants.module';
import { TokensModule } from './tokens/tokens.module';
import { UsersModule } from './users/users.module';

/** The service's configuration, visible to every feature module of this service. */
@Module({})
class TenantAuthConfigModule {
  static forRoot(env: TenantAuthEnv): DynamicModule {
    const providers = [
      { provide: TENANT_AUTH_ENV, useValue: env },
      {
        provide: SECRET_SEALER,
        useValue: keyEncryptionSealer(env.KEY_ENCRYPTION_SECRET, env.DATA_DIR),
      },
      { provide: DOMAIN_VERIFIER, useValue: new DomainVerifier(env.DNS_RESOLVER) },
    ];
    return {
      module: TenantAuthConfigModule,
      global: true,
      providers,
      exports: providers.map((p) => p.provide),
    };
  }
}

// The tenant-auth service: the unit that both its own process (main.ts) and the one-process runner
// import (D2, D1, D4).
@Module({})
export class TenantAuthModule {
  static forRoot(env: TenantAuthEnv & { DATABASE_URL: string }): DynamicModule {
    return {
      module: TenantAuthModule,
      imports: [
        DatabaseModule.forRoot({
          token: TENANT_AUTH_DATABASE,
          ...tenant_authDataSourceOptions(env.DATABASE_URL),
        }),
        MessagingModule.forService({
          service: TENANT_AUTH_SERVICE,
          databaseToken: TENANT_AUTH_DATABASE,
        }),
        TenantAuthConfigModule.forRoot(env),
        TokensModule,
        PermissionsModule,
        TenantsModule,
        UsersModule,
        GroupsModule,
        RolesModule,
        ClientsModule,
        IdentityProvidersModule,
        IdentityQueriesModule,
        KeysModule,
        RevocationsModule,
        BootstrapModule,
      ],
      providers: [tenantAuthJobs],
      exports: [BootstrapModule, KeysModule],
    };
  }
}

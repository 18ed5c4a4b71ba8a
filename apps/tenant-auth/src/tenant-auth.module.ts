import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@agp/database';
import { MessagingModule } from '@agp/messaging';

import { BootstrapService } from './bootstrap/bootstrap.service';
import { keyEncryptionSecret } from './bootstrap/key-encryption-secret';
import { AgentsController } from './clients/agents.controller';
import { ClientsRepository } from './clients/clients.repository';
import { ClientsService } from './clients/clients.service';
import { ServiceAccountsController } from './clients/service-accounts.controller';
import { SecretBox } from './common/secret-box';
import { TENANT_AUTH_ENV, TenantAuthEnv } from './config/tenant-auth.env';
import { tenant_authDataSourceOptions } from './database/data-source';
import { TENANT_AUTH_DATABASE, TENANT_AUTH_SERVICE } from './database/tokens';
import { GroupsController } from './groups/groups.controller';
import { GroupsRepository } from './groups/groups.repository';
import { GroupsService } from './groups/groups.service';
import { DomainVerifier } from './identity-providers/domain-verification';
import { IdentityProvidersController } from './identity-providers/identity-providers.controller';
import { IdentityProvidersRepository } from './identity-providers/identity-providers.repository';
import { DOMAIN_VERIFIER, IdentityProvidersService } from './identity-providers/identity-providers.service';
import { SECRET_BOX, SigningKeysService } from './keys/signing-keys.service';
import { SigningKeysRepository } from './keys/signing-keys.repository';
import { PermissionsController } from './permissions/permissions.controller';
import { RevocationsRepository } from './revocations/revocations.repository';
import { RevocationsService } from './revocations/revocations.service';
import { RolesController } from './roles/roles.controller';
import { RolesRepository } from './roles/roles.repository';
import { RolesService } from './roles/roles.service';
import { TenantProvisioner } from './tenants/tenant-provisioner';
import { TenantsController } from './tenants/tenants.controller';
import { TenantsRepository } from './tenants/tenants.repository';
import { TenantsService } from './tenants/tenants.service';
import { DiscoveryService } from './tokens/discovery.service';
import { TokenController } from './tokens/token.controller';
import { TokenRateLimiter } from './tokens/token-rate-limiter';
import { TokenService } from './tokens/token.service';
import { TokenSigner } from './tokens/token-signer';
import { UsersController } from './users/users.controller';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';

/**
 * The tenant-auth service: the unit that both its own process (main.ts) and the one-process runner
 * import (D2). Its routes live under /tenant-auth/... (D1); its data in the `tenant_auth` schema (D4).
 * It needs the process's AuthModule (for REVOCATION_STORE) and EventBusModule.
 */
@Module({})
export class TenantAuthModule {
  static forRoot(env: TenantAuthEnv & { DATABASE_URL: string }): DynamicModule {
    const secret = keyEncryptionSecret(env.KEY_ENCRYPTION_SECRET, env.DATA_DIR);
    return {
      module: TenantAuthModule,
      imports: [
        DatabaseModule.forRoot({ token: TENANT_AUTH_DATABASE, ...tenant_authDataSourceOptions(env.DATABASE_URL) }),
        MessagingModule.forService({ service: TENANT_AUTH_SERVICE, databaseToken: TENANT_AUTH_DATABASE }),
      ],
      controllers: [
        TokenController,
        PermissionsController,
        TenantsController,
        UsersController,
        GroupsController,
        RolesController,
        AgentsController,
        ServiceAccountsController,
        IdentityProvidersController,
      ],
      providers: [
        { provide: TENANT_AUTH_ENV, useValue: env },
        { provide: SECRET_BOX, useValue: new SecretBox(secret) },
        { provide: DOMAIN_VERIFIER, useValue: new DomainVerifier(env.DNS_RESOLVER) },
        SigningKeysRepository,
        SigningKeysService,
        RevocationsRepository,
        RevocationsService,
        TenantsRepository,
        TenantProvisioner,
        TenantsService,
        UsersRepository,
        UsersService,
        RolesRepository,
        RolesService,
        GroupsRepository,
        GroupsService,
        ClientsRepository,
        ClientsService,
        IdentityProvidersRepository,
        IdentityProvidersService,
        TokenRateLimiter,
        TokenSigner,
        TokenService,
        DiscoveryService,
        BootstrapService,
      ],
      exports: [BootstrapService, SigningKeysService, TENANT_AUTH_ENV],
    };
  }
}

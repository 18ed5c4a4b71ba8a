import { Module } from '@nestjs/common';

import { ClientsModule } from '../clients/clients.module';
import { GroupsModule } from '../groups/groups.module';
import { IdentityProvidersModule } from '../identity-providers/identity-providers.module';
import { KeysModule } from '../keys/keys.module';
import { ClientRegistrationController } from '../mcp-clients/client-registration.controller';
import { McpClientsRepository } from '../mcp-clients/mcp-clients.repository';
import { OAuthClients } from '../mcp-clients/oauth-clients';
import { CodeGrants } from '../sign-in/code-grants';
import { ConsentService } from '../sign-in/consent.service';
import { FederationService } from '../sign-in/federation.service';
import { SignInController } from '../sign-in/sign-in.controller';
import { SignInRepository } from '../sign-in/sign-in.repository';
import { SignInService } from '../sign-in/sign-in.service';
import { TenantsModule } from '../tenants/tenants.module';
import { UsersModule } from '../users/users.module';
import { DiscoveryService } from './discovery.service';
import { LocalUsers } from './local-users';
import { TokenController } from './token.controller';
import { TokenRateLimiter } from './token-rate-limiter';
import { TokenRateWindowsRepository } from './token-rate-windows.repository';
import { TokenService } from './token.service';
import { TokenSigner } from './token-signer';
import { WellKnownController } from './well-known.controller';

/** D6–D9 and identity.md I14–I17: the authorization server. */
@Module({
  imports: [
    ClientsModule,
    TenantsModule,
    UsersModule,
    KeysModule,
    GroupsModule,
    IdentityProvidersModule,
  ],
  controllers: [
    TokenController,
    SignInController,
    ClientRegistrationController,
    WellKnownController,
  ],
  providers: [
    TokenRateLimiter,
    TokenRateWindowsRepository,
    TokenSigner,
    TokenService,
    DiscoveryService,
    LocalUsers,
    SignInRepository,
    SignInService,
    FederationService,
    CodeGrants,
    ConsentService,
    OAuthClients,
    McpClientsRepository,
  ],
  exports: [OAuthClients],
})
export class TokensModule {}

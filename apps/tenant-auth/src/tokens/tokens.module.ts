import { Module } from '@nestjs/common';

import { ClientsModule } from '../clients/clients.module';
import { KeysModule } from '../keys/keys.module';
import { TenantsModule } from '../tenants/tenants.module';
import { UsersModule } from '../users/users.module';
import { DiscoveryService } from './discovery.service';
import { TokenController } from './token.controller';
import { TokenRateLimiter } from './token-rate-limiter';
import { TokenService } from './token.service';
import { TokenSigner } from './token-signer';

/** D6–D9: the token endpoint, the JWKS and the discovery document. */
@Module({
  imports: [ClientsModule, TenantsModule, UsersModule, KeysModule],
  controllers: [TokenController],
  providers: [TokenRateLimiter, TokenSigner, TokenService, DiscoveryService],
})
export class TokensModule {}

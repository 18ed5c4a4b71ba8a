import { Module } from '@nestjs/common';

import { GroupsModule } from '../groups/groups.module';
import { IdentityProvidersController } from './identity-providers.controller';
import { IdentityProvidersRepository } from './identity-providers.repository';
import { IdentityProvidersService } from './identity-providers.service';

@Module({
  imports: [GroupsModule],
  controllers: [IdentityProvidersController],
  providers: [IdentityProvidersRepository, IdentityProvidersService],
  exports: [IdentityProvidersRepository],
})
export class IdentityProvidersModule {}

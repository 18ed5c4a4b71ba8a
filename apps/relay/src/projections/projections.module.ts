import { Global, Module } from '@nestjs/common';

import { AgentsRepository } from '../agents/agents.repository';
import { TenantsRepository } from '../tenants/tenants.repository';
import { UsersRepository } from '../users/users.repository';
import { IdentityProjections } from './identity-projections.service';

/** Issue 30. Global: the agents' module uses it too, and importing it there would be a cycle. */
@Global()
@Module({
  providers: [IdentityProjections, AgentsRepository, UsersRepository, TenantsRepository],
  exports: [IdentityProjections],
})
export class ProjectionsModule {}

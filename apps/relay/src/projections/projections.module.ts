import { Global, Module } from '@nestjs/common';

import { AgentsRepository } from '../agents/agents.repository';
import { TenantsRepository } from '../tenants/tenants.repository';
import { UsersRepository } from '../users/users.repository';
import { IdentityProjections } from './identity-projections.service';

/**
 * The relay's projections of tenant-auth's identities, seeded on a miss (issue 30). Global: every
 * feature that accepts an agent, user or tenant id checks it through `IdentityProjections`, and the
 * agents' own module uses it too (importing it there would be a cycle). The repositories are
 * stateless, so this module's instances are as good as their feature modules'.
 */
@Global()
@Module({
  providers: [IdentityProjections, AgentsRepository, UsersRepository, TenantsRepository],
  exports: [IdentityProjections],
})
export class ProjectionsModule {}

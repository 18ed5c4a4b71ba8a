import { Module } from '@nestjs/common';

import { ClientsModule } from '../clients/clients.module';
import { TenantsModule } from '../tenants/tenants.module';
import { UsersModule } from '../users/users.module';
import { IdentityQueriesAnswerer } from './identity-queries.answerer';

/** Answers other services' questions about tenant-auth's identities (issue 30). */
@Module({
  imports: [ClientsModule, UsersModule, TenantsModule],
  providers: [IdentityQueriesAnswerer],
})
export class IdentityQueriesModule {}

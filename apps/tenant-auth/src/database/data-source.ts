import { SchemaDataSourceOptions } from '@agp/database';

import { Client } from '../clients/entities/client.entity';
import { GroupMember } from '../groups/entities/group-member.entity';
import { Group } from '../groups/entities/group.entity';
import { IdentityProvider } from '../identity-providers/entities/identity-provider.entity';
import { SigningKey } from '../keys/entities/signing-key.entity';
import { Role } from '../roles/entities/role.entity';
import { Tenant } from '../tenants/entities/tenant.entity';
import { User } from '../users/entities/user.entity';
import { CreateMessagingTables1763780000000 } from './migrations/1763780000000-CreateMessagingTables';
import { CreateIdentityTables1763790000000 } from './migrations/1763790000000-CreateIdentityTables';
import { CreateSignInTables1764300000000 } from './migrations/1764300000000-CreateSignInTables';
import { AddIdentityRevisions1765000000000 } from './migrations/1765000000000-AddIdentityRevisions';
import { CreateJobRunsTable1765065600000 } from './migrations/1765065600000-CreateJobRunsTable';
import { CreateMcpClientTables1765250000000 } from './migrations/1765250000000-CreateMcpClientTables';
import { TENANT_AUTH_SCHEMA } from './tokens';

export const TENANT_AUTH_ENTITIES = [
  Tenant,
  User,
  Group,
  GroupMember,
  Role,
  Client,
  IdentityProvider,
  SigningKey,
];

/** Entities and migrations of the tenant_auth schema: shared by the runtime and the migrate command. */
export function tenant_authDataSourceOptions(url: string): SchemaDataSourceOptions {
  return {
    url,
    schema: TENANT_AUTH_SCHEMA,
    entities: TENANT_AUTH_ENTITIES,
    migrations: [
      CreateMessagingTables1763780000000,
      CreateIdentityTables1763790000000,
      CreateSignInTables1764300000000,
      AddIdentityRevisions1765000000000,
      CreateJobRunsTable1765065600000,
      CreateMcpClientTables1765250000000,
    ],
  };
}

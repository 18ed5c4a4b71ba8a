import { SchemaDataSourceOptions } from '@agp/database';

import { CreateMessagingTables1763780000000 } from './migrations/1763780000000-CreateMessagingTables';
import { CreateIdentityTables1763790000000 } from './migrations/1763790000000-CreateIdentityTables';
import { CreateSignInTables1764300000000 } from './migrations/1764300000000-CreateSignInTables';
import { AddIdentityRevisions1765000000000 } from './migrations/1765000000000-AddIdentityRevisions';
import { CreateJobRunsTable1765065600000 } from './migrations/1765065600000-CreateJobRunsTable';
import { CreateMcpClientTables1765250000000 } from './migrations/1765250000000-CreateMcpClientTables';
import { AddRegisteredClientUse1765260000000 } from './migrations/1765260000000-AddRegisteredClientUse';
import { TENANT_AUTH_SCHEMA } from './tokens';

/** Migrations of the tenant_auth schema, shared by the runtime and the migrate command (F35: no entities). */
export function tenant_authDataSourceOptions(url: string): SchemaDataSourceOptions {
  return {
    url,
    schema: TENANT_AUTH_SCHEMA,
    entities: [],
    migrations: [
      CreateMessagingTables1763780000000,
      CreateIdentityTables1763790000000,
      CreateSignInTables1764300000000,
      AddIdentityRevisions1765000000000,
      CreateJobRunsTable1765065600000,
      CreateMcpClientTables1765250000000,
      AddRegisteredClientUse1765260000000,
    ],
  };
}

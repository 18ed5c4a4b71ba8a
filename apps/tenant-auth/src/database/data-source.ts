import { SchemaDataSourceOptions } from '@agp/database';

import { CreateMessagingTables1763780000000 } from './migrations/1763780000000-CreateMessagingTables';
import { TENANT_AUTH_SCHEMA } from './tokens';

/** Entities and migrations of the tenant_auth schema: shared by the runtime and the migrate command. */
export function tenant_authDataSourceOptions(url: string): SchemaDataSourceOptions {
  return {
    url,
    schema: TENANT_AUTH_SCHEMA,
    entities: [],
    migrations: [CreateMessagingTables1763780000000],
  };
}

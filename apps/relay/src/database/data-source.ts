import { SchemaDataSourceOptions } from '@agp/database';

import { CreateMessagingTables1763780000000 } from './migrations/1763780000000-CreateMessagingTables';
import { RELAY_SCHEMA } from './tokens';

/** Entities and migrations of the relay schema: shared by the runtime and the migrate command. */
export function relayDataSourceOptions(url: string): SchemaDataSourceOptions {
  return {
    url,
    schema: RELAY_SCHEMA,
    entities: [],
    migrations: [CreateMessagingTables1763780000000],
  };
}

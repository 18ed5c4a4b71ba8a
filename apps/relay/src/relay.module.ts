import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@agp/database';
import { MessagingModule } from '@agp/messaging';

import { RelayEnv } from './config/relay.env';
import { relayDataSourceOptions } from './database/data-source';
import { RELAY_DATABASE, RELAY_SERVICE } from './database/tokens';

/**
 * The relay service: the unit that both its own process (main.ts) and the one-process runner
 * import (D2). Its routes live under /relay/... (D1); its data in the `relay` schema (D4).
 */
@Module({})
export class RelayModule {
  static forRoot(env: RelayEnv & { DATABASE_URL: string }): DynamicModule {
    return {
      module: RelayModule,
      imports: [
        DatabaseModule.forRoot({ token: RELAY_DATABASE, ...relayDataSourceOptions(env.DATABASE_URL) }),
        MessagingModule.forService({ service: RELAY_SERVICE, databaseToken: RELAY_DATABASE }),
      ],
    };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { ReadinessRegistry } from '@agp/http';

import { createSchemaDataSource, SchemaDataSourceOptions } from './data-source';
import { Database } from './database';
import { migrate } from './migrations';

export interface DatabaseModuleOptions extends SchemaDataSourceOptions {
  token: symbol;
  /** D4: migrations run at start (under an advisory lock) unless the operator runs them apart. */
  migrateOnStart?: boolean;
}

@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: options.token,
          inject: [ReadinessRegistry],
          useFactory: async (readiness: ReadinessRegistry): Promise<Database> => {
            const dataSource = createSchemaDataSource(options);
            await dataSource.initialize();
            if (options.migrateOnStart !== false) {
              await migrate(dataSource, options.schema);
            }
            const database = new Database(dataSource, options.schema);
            readiness.register(`database:${options.schema}`, () => database.ping());
            return database;
          },
        },
      ],
      exports: [options.token],
    };
  }
}

/** Per-service tokens, so that services composed in one process (D2) never share a provider. */
export function databaseToken(service: string): symbol {
  return Symbol.for(`agp:${service}:database`);
}

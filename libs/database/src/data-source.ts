import { DataSource, DataSourceOptions, MixedList, EntitySchema } from 'typeorm';

import { inProcessStreamFor } from './embedded-postgres';
import { SnakeNamingStrategy } from './snake-naming.strategy';

export interface SchemaDataSourceOptions {
  url: string;
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  applicationName?: string;
}

export function schemaDataSourceOptions(options: SchemaDataSourceOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: options.applicationName ?? `agp-${options.schema}`,
    extra: {
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 10_000,
      ...inProcessStreamFor(options.url),
    },
  };
}

export function createSchemaDataSource(options: SchemaDataSourceOptions): DataSource {
  return new DataSource(schemaDataSourceOptions(options));
}

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DatabaseModule, Database } from '@agp/database';
import { createHttpApp } from '@agp/http';
import { EventBusModule, MessagingModule } from '@agp/messaging';

import { auditDataSourceOptions } from '../src/database/data-source';
import { AUDIT_DATABASE, AUDIT_SCHEMA, AUDIT_SERVICE } from '../src/database/tokens';
import { DetectorTickService } from '../src/monitors/tick/detector-tick.service';
import { MonitorsModule } from '../src/monitors/monitors.module';
import { MonitorsOptions } from '../src/monitors/monitors.options';
import { RollupsRepository } from '../src/monitors/rollups/rollups.repository';
import { RollupWriter } from '../tools/simulator/simulation';

export interface MonitorsBench {
  app: NestFastifyApplication;
  database: Database;
  ticks: DetectorTickService;
  writer: RollupWriter;
}

/**
 * The monitors feature alone (the audit schema's migrations, in-process events, no timer) on a
 * bench database; `options` can pick where custom monitors read (M26).
 */
export async function startMonitorsBench(
  databaseUrl: string,
  options: MonitorsOptions = {},
): Promise<MonitorsBench> {
  const app = await createHttpApp({
    service: 'audit-monitors-bench',
    logLevel: 'warn',
    imports: [
      EventBusModule.forRoot({ prefix: 'bench' }),
      DatabaseModule.forRoot({
        token: AUDIT_DATABASE,
        url: databaseUrl,
        schema: AUDIT_SCHEMA,
        entities: [],
        migrations: auditDataSourceOptions(databaseUrl).migrations,
        // A tick reads in up to five transactions at once (M34); a service's pool is 10.
        poolSize: 6,
      }),
      MessagingModule.forService({ service: AUDIT_SERVICE, databaseToken: AUDIT_DATABASE }),
      MonitorsModule.forRoot({ ...options, schedule: false }),
    ],
  });
  await app.init();
  const database = app.get<Database>(AUDIT_DATABASE);
  return {
    app,
    database,
    ticks: app.get(DetectorTickService),
    writer: new RollupWriter(database, app.get(RollupsRepository)),
  };
}

import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@agp/database';
import { MessagingModule } from '@agp/messaging';

import { auditJobs } from './audit-jobs';
import { AuditCommonModule } from './common/common.module';
import { AuditEnv } from './config/audit.env';
import { ConversationsModule } from './conversations/conversations.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { auditDataSourceOptions } from './database/data-source';
import { AUDIT_DATABASE, AUDIT_SERVICE } from './database/tokens';
import { EventsModule } from './events/events.module';
import { ExportModule } from './export/export.module';
import { IngestModule } from './ingest/ingest.module';
import { IntegrityModule } from './integrity/integrity.module';
import { MonitorsModule } from './monitors/monitors.module';
import { RetentionModule } from './retention/retention.module';
import { TelemetryModule } from './telemetry/telemetry.module';

// The audit service: the unit that both its own process (main.ts) and the one-process runner import
// (D2, D1, D4).
@Module({})
export class AuditModule {
  static forRoot(env: AuditEnv & { DATABASE_URL: string }): DynamicModule {
    return {
      module: AuditModule,
      imports: [
        DatabaseModule.forRoot({
          token: AUDIT_DATABASE,
          ...auditDataSourceOptions(env.DATABASE_URL),
        }),
        MessagingModule.forService({ service: AUDIT_SERVICE, databaseToken: AUDIT_DATABASE }),
        AuditCommonModule.forRoot(env),
        EventsModule,
        IngestModule,
        ConversationsModule,
        IntegrityModule,
        ExportModule,
        RetentionModule,
        DashboardModule,
        MonitorsModule.forRoot(),
        TelemetryModule,
      ],
      providers: [auditJobs],
    };
  }
}

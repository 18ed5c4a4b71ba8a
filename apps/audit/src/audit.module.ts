import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@agp/database';
import { MessagingModule } from '@agp/messaging';

import { AuditEnv } from './config/audit.env';
import { auditDataSourceOptions } from './database/data-source';
import { AUDIT_DATABASE, AUDIT_SERVICE } from './database/tokens';

/**
 * The audit service: the unit that both its own process (main.ts) and the one-process runner
 * import (D2). Its routes live under /audit/... (D1); its data in the `audit` schema (D4).
 */
@Module({})
export class AuditModule {
  static forRoot(env: AuditEnv & { DATABASE_URL: string }): DynamicModule {
    return {
      module: AuditModule,
      imports: [
        DatabaseModule.forRoot({ token: AUDIT_DATABASE, ...auditDataSourceOptions(env.DATABASE_URL) }),
        MessagingModule.forService({ service: AUDIT_SERVICE, databaseToken: AUDIT_DATABASE }),
      ],
    };
  }
}

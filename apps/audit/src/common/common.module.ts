import { DynamicModule, Global, Module } from '@nestjs/common';

import { AuditEnv } from '../config/audit.env';
import { AUDIT_ENV } from './audit-env.token';
import { JobRunsRepository } from './job-runs.repository';

/** The audit service's configuration and scheduling claims, for every feature module. */
@Global()
@Module({})
export class AuditCommonModule {
  static forRoot(env: AuditEnv): DynamicModule {
    return {
      module: AuditCommonModule,
      providers: [{ provide: AUDIT_ENV, useValue: env }, JobRunsRepository],
      exports: [AUDIT_ENV, JobRunsRepository],
    };
  }
}

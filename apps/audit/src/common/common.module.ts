import { DynamicModule, Global, Module } from '@nestjs/common';

import { AuditEnv } from '../config/audit.env';
import { AUDIT_ENV } from './audit-env.token';

/** The audit service's configuration, for every feature module. */
@Global()
@Module({})
export class AuditCommonModule {
  static forRoot(env: AuditEnv): DynamicModule {
    return {
      module: AuditCommonModule,
      providers: [{ provide: AUDIT_ENV, useValue: env }],
      exports: [AUDIT_ENV],
    };
  }
}

import { DynamicModule, Global, Module } from '@nestjs/common';

import { AuditEnv } from '../config/audit.env';
import { AUDIT_ENV } from './audit-env.token';

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

import 'reflect-metadata';

import { AuthModule, authOptionsFromEnv } from '@agp/auth';
import { loadEnvOrExit } from '@agp/config';
import { createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';

import { AuditEnv } from './config/audit.env';
import { AuditModule } from './audit.module';
import { AUDIT_RESPONSE_SCHEMAS } from './openapi/response-schemas';

async function main(): Promise<void> {
  const env = loadEnvOrExit(AuditEnv);
  if (!env.DATABASE_URL || !env.NATS_URL) {
    process.stderr.write(
      'invalid configuration: DATABASE_URL and NATS_URL are required for a standalone service\n',
    );
    process.exit(1);
  }
  const app = await createHttpApp({
    service: 'audit',
    openApi: {
      title: 'Agent Governance Platform — audit: events, integrity, monitors and alerts',
      responses: [AUDIT_RESPONSE_SCHEMAS],
    },
    logLevel: env.LOG_LEVEL,
    trustProxyHops: env.TRUST_PROXY_HOPS,
    imports: [
      AuthModule.forRoot(authOptionsFromEnv(env)),
      EventBusModule.forRoot({ natsUrl: env.NATS_URL, prefix: env.NATS_PREFIX }),
      AuditModule.forRoot({ ...env, DATABASE_URL: env.DATABASE_URL }),
    ],
  });
  await app.listen({ port: env.PORT, host: '0.0.0.0' });
}

void main();

import 'reflect-metadata';

import { AuthModule, authOptionsFromEnv } from '@agp/auth';
import { loadEnvOrExit } from '@agp/config';
import { createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';

import { TenantAuthEnv } from './config/tenant-auth.env';
import { TenantAuthModule } from './tenant-auth.module';
import { TENANT_AUTH_RESPONSE_SCHEMAS } from './openapi/response-schemas';

async function main(): Promise<void> {
  const env = loadEnvOrExit(TenantAuthEnv);
  for (const name of ['DATABASE_URL', 'NATS_URL', 'KEY_ENCRYPTION_SECRET'] as const) {
    if (!env[name]) {
      process.stderr.write(`invalid configuration: ${name} is required for a standalone service\n`);
      process.exit(1);
    }
  }
  const app = await createHttpApp({
    service: 'tenant-auth',
    openApi: {
      title: 'Agent Governance Platform — tenant-auth: tenants, identities and tokens',
      responses: [TENANT_AUTH_RESPONSE_SCHEMAS],
    },
    logLevel: env.LOG_LEVEL,
    trustProxyHops: env.TRUST_PROXY_HOPS,
    imports: [
      AuthModule.forRoot(
        authOptionsFromEnv(
          env,
          `http://127.0.0.1:${env.PORT}/tenant-auth/v1/.well-known/jwks.json`,
        ),
      ),
      EventBusModule.forRoot({ natsUrl: env.NATS_URL, prefix: env.NATS_PREFIX }),
      TenantAuthModule.forRoot({ ...env, DATABASE_URL: env.DATABASE_URL! }),
    ],
  });
  await app.listen({ port: env.PORT, host: '0.0.0.0' });
}

void main();

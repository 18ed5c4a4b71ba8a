import 'reflect-metadata';

import { AuthModule, authOptionsFromEnv } from '@agp/auth';
import { loadEnvOrExit } from '@agp/config';
import { createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';

import { RelayEnv } from './config/relay.env';
import { RelayModule } from './relay.module';
import { RELAY_RESPONSE_SCHEMAS } from './openapi/response-schemas';

async function main(): Promise<void> {
  const env = loadEnvOrExit(RelayEnv);
  // D37: every replica must open what another sealed, so the key is never generated here.
  for (const name of ['DATABASE_URL', 'NATS_URL', 'SECRETS_KEY'] as const) {
    if (!env[name]) {
      process.stderr.write(`invalid configuration: ${name} is required for a standalone service\n`);
      process.exit(1);
    }
  }
  const app = await createHttpApp({
    service: 'relay',
    openApi: {
      title: 'Agent Governance Platform — the relay: registry, policies, decisions, traffic',
      responses: [RELAY_RESPONSE_SCHEMAS],
    },
    logLevel: env.LOG_LEVEL,
    trustProxyHops: env.TRUST_PROXY_HOPS,
    imports: [
      AuthModule.forRoot(authOptionsFromEnv(env)),
      EventBusModule.forRoot({ natsUrl: env.NATS_URL, prefix: env.NATS_PREFIX }),
      RelayModule.forRoot({ ...env, DATABASE_URL: env.DATABASE_URL! }),
    ],
  });
  await app.listen({ port: env.PORT, host: '0.0.0.0' });
}

void main();

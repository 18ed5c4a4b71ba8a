import 'reflect-metadata';

import { loadEnvOrExit } from '@agp/config';
import { createHttpApp } from '@agp/http';

import { GatewayEnv } from './config/gateway.env';
import { GatewayModule } from './gateway.module';
import { registerProxy } from './proxy/register-proxy';
import { upstreamRoutes } from './proxy/upstream-routes';

async function main(): Promise<void> {
  const env = loadEnvOrExit(GatewayEnv);
  const app = await createHttpApp({
    service: 'api-gateway',
    logLevel: env.LOG_LEVEL,
    imports: [GatewayModule],
    parseBodies: false,
    configureFastify: (adapter, logger) =>
      registerProxy(
        adapter.getInstance(),
        { routes: upstreamRoutes(env), timeoutMs: env.UPSTREAM_TIMEOUT_MS },
        logger,
      ),
  });
  await app.listen({ port: env.PORT, host: '0.0.0.0' });
}

void main();

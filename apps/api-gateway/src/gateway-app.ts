import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '@agp/http';

import { GatewayEnv } from './config/gateway.env';
import { GatewayModule } from './gateway.module';
import { registerProxy } from './proxy/register-proxy';
import { upstreamRoutes } from './proxy/upstream-routes';

/** The public entry (D1): health probes, then every service prefix forwarded as a stream. */
export async function createGatewayApp(env: GatewayEnv): Promise<NestFastifyApplication> {
  return createHttpApp({
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
}

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { HttpProblem, createHttpApp, registerApiDocsRoutes, sendProblem } from '@agp/http';

import { registerGatewayAuth } from './auth/gateway-auth';
import { GatewayEnv } from './config/gateway.env';
import { mergedOpenApiDocument } from './docs/merged-openapi';
import { GatewayModule } from './gateway.module';
import { registerProxy } from './proxy/register-proxy';
import { WELL_KNOWN, upstreamRoutes } from './proxy/upstream-routes';

export interface GatewayAppOptions {
  /** False only for the benchmark's baseline and proxy-only tests; production always verifies (D1, D8). */
  verifyTokens?: boolean;
}

export async function createGatewayApp(
  env: GatewayEnv,
  options: GatewayAppOptions = {},
): Promise<NestFastifyApplication> {
  const routes = upstreamRoutes(env);
  return createHttpApp({
    service: 'api-gateway',
    logLevel: env.LOG_LEVEL,
    trustProxyHops: env.TRUST_PROXY_HOPS,
    imports: [GatewayModule],
    parseBodies: false,
    // The owning service logs proxied requests; the gateway only what it answers itself.
    unloggedPrefixes: routes.map((route) => route.prefix),
    configureFastify: (adapter, logger) => {
      if (options.verifyTokens !== false) {
        registerGatewayAuth(adapter.getInstance(), env, logger);
      }
      registerProxy(adapter.getInstance(), { routes, timeoutMs: env.UPSTREAM_TIMEOUT_MS }, logger);
      // D43: a well-known path nobody serves is 404 problem+json, so discovery moves on.
      adapter.getInstance().all(`${WELL_KNOWN}*`, (request, reply) => {
        sendProblem(logger, HttpProblem.notFound(`nothing at ${request.url}`), request, reply);
      });
      registerApiDocsRoutes(adapter.getInstance(), () => mergedOpenApiDocument(env), { ui: true });
    },
  });
}

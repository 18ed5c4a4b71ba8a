import { DEFAULT_BODY_LIMIT, HttpProblem, sendProblem } from '@agp/http';
import { FastifyInstance } from 'fastify';
import { Logger } from 'pino';

import { UpstreamPool, UpstreamPoolOptions } from './upstream-pool';
import { UpstreamRoute } from './upstream-routes';

export interface ProxyOptions {
  routes: UpstreamRoute[];
  timeoutMs: number;
  /** D12's limit on the bodies services parse, checked here too (T13). */
  bodyLimit?: number;
}

export function registerProxy(
  fastify: FastifyInstance,
  options: ProxyOptions,
  logger: Logger,
): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  const api = options.routes.filter((route) => !route.isTraffic);
  const traffic = options.routes.filter((route) => route.isTraffic);
  // T15: a traffic call holds its connection while a person decides (D34): a pool of its own.
  void fastify.register(async (child) =>
    forward(child, { ...options, routes: api }, logger, {
      connections: 128,
      timeoutMs: options.timeoutMs,
    }),
  );
  void fastify.register(async (child) =>
    forward(child, { ...options, routes: traffic }, logger, {
      connections: 2_048,
      timeoutMs: Math.max(options.timeoutMs, TRAFFIC_TIMEOUT_MS),
    }),
  );
}

/** Traffic answers can wait for a person for up to 300 s (D34); the gateway waits a little longer. */
export const TRAFFIC_TIMEOUT_MS = 330_000;

async function forward(
  fastify: FastifyInstance,
  options: ProxyOptions,
  logger: Logger,
  pool: UpstreamPoolOptions,
): Promise<void> {
  const pools = new Map<string, UpstreamPool>();
  fastify.addHook('onClose', async () => {
    await Promise.all([...pools.values()].map((upstream) => upstream.close()));
  });
  for (const route of options.routes) {
    const bodyLimit = route.bodyLimit ?? options.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const upstream = pools.get(route.upstream) ?? new UpstreamPool(route.upstream, pool);
    pools.set(route.upstream, upstream);
    fastify.all(`${route.prefix}*`, (request, reply) => {
      if (
        isParsedBody(request.headers['content-type']) &&
        Number(request.headers['content-length'] ?? 0) > bodyLimit
      ) {
        const detail = `the body is larger than ${bodyLimit} bytes`;
        // The body is refused unread: the connection cannot carry another request after it.
        reply.header('connection', 'close');
        return sendProblem(
          logger,
          new HttpProblem(413, 'payload-too-large', detail),
          request,
          reply,
        );
      }
      return upstream.forward(request, reply, (problem, error) => {
        logger.warn({ err: error, upstream: route.upstream, url: request.url }, 'upstream failed');
        sendProblem(logger, problem, request, reply);
      });
    });
  }
}

/** The bodies the services parse, and so limit (JSON and forms, D12); other types stream on. */
function isParsedBody(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return (
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/x-www-form-urlencoded'
  );
}

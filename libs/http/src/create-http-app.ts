import { DynamicModule, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import pino, { Logger } from 'pino';

import { CORRELATION_HEADER, assignCorrelationId } from './correlation-id';
import { HttpCoreModule } from './http-core.module';
import { HttpProblem } from './http-problem.exception';
import { unacceptableInput } from './input-guard';
import { ProblemDetailsFilter, sendProblem } from './problem-details.filter';
import { createLogger } from './logger';
import { StartupHooksRunner } from './startup-hooks';
import { createValidationPipe } from './validation';
import { registerApiDocsRoutes } from './openapi/api-docs-routes';
import { OpenApiInfo, buildOpenApiDocument } from './openapi/openapi-document';

/** D12: 1 MiB unless a service says otherwise. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** F40: how long a closing server waits for the requests still in flight before dropping them. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface HttpAppOptions {
  service: string;
  logLevel: string;
  imports: Array<Type<unknown> | DynamicModule>;
  bodyLimit?: number;
  logDestination?: pino.DestinationStream;
  /** False for the gateway, which streams bodies through instead of parsing them. */
  parseBodies?: boolean;
  /** Path prefixes whose requests this process does not log (see HttpCoreModule). */
  unloggedPrefixes?: readonly string[];
  /** Proxies believed about the client's address (`TRUST_PROXY_HOPS`, F17); default none. */
  trustProxyHops?: number;
  // `/openapi.json` (issue 18); `ui` adds Swagger UI at `/docs` (the gateway serves its own).
  openApi?: OpenApiInfo & { ui?: boolean };
  /** F40: the drain's bound at shutdown; SHUTDOWN_GRACE_MS unless a caller says otherwise. */
  shutdownGraceMs?: number;
  configureFastify?: (adapter: FastifyAdapter, logger: Logger) => void;
}

export async function createHttpApp(options: HttpAppOptions): Promise<NestFastifyApplication> {
  const logger = createLogger({
    service: options.service,
    level: options.logLevel,
    destination: options.logDestination,
  });
  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // A count of hops, never `true`: believing every X-Forwarded-For entry lets a client name its
    // own address to the per-address rate limits (F17).
    trustProxy: options.trustProxyHops ?? 0,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // A URL the router refuses (bad percent-encoding, a parameter over 100 characters) is answered
    // before any hook runs: problem+json and a correlation id all the same (D12, D13).
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      void reply.header(CORRELATION_HEADER, assignCorrelationId(request.raw));
      sendProblem(logger, error, request, reply);
    },
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(CORRELATION_HEADER, assignCorrelationId(request.raw));
    done();
  });
  if (options.parseBodies !== false) {
    // D12: bodies are JSON (and forms, for the token endpoint, D7); anything else is a 415.
    fastify.removeContentTypeParser('text/plain');
    // F23: input no handler should have to survive is refused before any handler sees it.
    fastify.addHook('preValidation', (request, reply, done) => {
      const bad =
        unacceptableInput(request.body) ??
        unacceptableInput(request.query) ??
        unacceptableInput(request.params);
      if (bad) {
        sendProblem(logger, HttpProblem.validation([bad]), request, reply);
        return;
      }
      done();
    });
  }
  boundTheShutdownDrain(fastify, options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS);
  options.configureFastify?.(adapter, logger);

  @Module({
    imports: [HttpCoreModule.forRoot(logger, options.unloggedPrefixes), ...options.imports],
    providers: [StartupHooksRunner],
  })
  class RootModule {}

  const app = await NestFactory.create<NestFastifyApplication>(RootModule, adapter, {
    bufferLogs: true,
    bodyParser: options.parseBodies ?? true,
  });
  app.useLogger(app.get(PinoNestLogger));
  app.useGlobalFilters(new ProblemDetailsFilter(logger));
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  const { openApi } = options;
  if (openApi) {
    registerApiDocsRoutes(fastify, () => buildOpenApiDocument(app, openApi), {
      ui: openApi.ui ?? false,
    });
  }
  return app;
}

/** F40: a closing server refuses new requests (503) and closes idle connections at once. */
function boundTheShutdownDrain(fastify: FastifyInstance, graceMs: number) {
  let dropper: NodeJS.Timeout | undefined;
  fastify.addHook('preClose', (done) => {
    dropper = setTimeout(() => fastify.server.closeAllConnections(), graceMs);
    dropper.unref();
    done();
  });
  fastify.addHook('onClose', (_instance, done) => {
    clearTimeout(dropper);
    done();
  });
}

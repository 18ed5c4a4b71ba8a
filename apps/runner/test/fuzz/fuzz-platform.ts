import { randomBytes } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuditEnv, AuditModule } from '@agp/audit';
import { AuthModule, authOptionsFromEnv } from '@agp/auth';
import { loadEnv } from '@agp/config';
import { createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';
import { RelayEnv, RelayModule } from '@agp/relay';
import { BootstrapService, TenantAuthEnv, TenantAuthModule } from '@agp/tenant-auth';
import { createTestDatabase, freePort, uniqueNatsPrefix } from '@agp/testing';

/** What the fuzzer sends and reads back: a request as `inject` takes it, without a socket. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

export interface FuzzPlatform {
  app: NestFastifyApplication;
  send(request: FuzzRequest): Promise<FuzzAnswer>;
  /** The error lines the platform logged (pino JSON), newest last: what a 500 said inside. */
  errorLog: string[];
  close(): Promise<void>;
}

/**
 * The one-process runner as apps/runner/src/main.ts composes it (D2), on a PostgreSQL database of
 * its own and in-process events, serving its OpenAPI document at /openapi.json. Requests go in
 * through fastify's `inject` (the whole HTTP pipeline: routing, body parsing and limits, guards,
 * pipes, filters), so tens of thousands of them cost no sockets.
 */
export async function startFuzzPlatform(): Promise<FuzzPlatform> {
  const database = await createTestDatabase('openapi_fuzz');
  const port = await freePort();
  const env: Record<string, string> = {
    PUBLIC_BASE_URL: 'http://agp.test',
    DATABASE_URL: database.url,
    NATS_PREFIX: uniqueNatsPrefix('fuzz'),
    LOG_LEVEL: 'error',
    PORT: String(port),
    KEY_ENCRYPTION_SECRET: 'k'.repeat(40),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    // The fuzzer signs in a handful of callers, then hammers the token endpoint with bad forms.
    TOKEN_RATE_LIMIT_PER_ADDRESS: '1000000',
    // D9's longest: a full run outlasts the default 15 minutes, and its callers sign in once.
    TOKEN_TTL_SEC: '86400',
  };
  const errorLog: string[] = [];
  const tenantAuthEnv = loadEnv(TenantAuthEnv, env);
  const app = await createHttpApp({
    service: 'agp',
    logLevel: 'error',
    logDestination: {
      write: (line: string) => {
        errorLog.push(line);
        errorLog.splice(0, Math.max(0, errorLog.length - 200));
      },
    },
    openApi: { title: 'Agent Governance Platform' },
    imports: [
      AuthModule.forRoot(
        authOptionsFromEnv(
          tenantAuthEnv,
          `http://127.0.0.1:${port}/tenant-auth/v1/.well-known/jwks.json`,
        ),
      ),
      EventBusModule.forRoot({ prefix: env.NATS_PREFIX }),
      TenantAuthModule.forRoot({ ...tenantAuthEnv, DATABASE_URL: database.url }),
      RelayModule.forRoot({ ...loadEnv(RelayEnv, env), DATABASE_URL: database.url }),
      AuditModule.forRoot({ ...loadEnv(AuditEnv, env), DATABASE_URL: database.url }),
    ],
  });
  await app.listen({ port, host: '127.0.0.1' });
  const fastify = app.getHttpAdapter().getInstance();
  return {
    app,
    errorLog,
    send: async (request) => {
      const answer = await fastify.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      });
      return { status: answer.statusCode, headers: answer.headers, body: answer.body };
    },
    close: async () => {
      const closing = app.close();
      app.getHttpServer().closeAllConnections();
      await closing;
      await database.drop();
    },
  };
}

export { BootstrapService };

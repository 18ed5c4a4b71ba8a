import { Writable } from 'node:stream';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthModule, authOptionsFromEnv } from '@agp/auth';
import { loadEnv } from '@agp/config';
import { createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';
import {
  CatalogueRoute,
  TEST_NATS_URL,
  TestDatabase,
  catalogueRoutes,
  createTestDatabase,
  deleteNatsStreams,
  freePort,
  uniqueNatsPrefix,
} from '@agp/testing';

import { BootstrapResult, BootstrapService, TenantAuthEnv, TenantAuthModule } from '../src';

export const BASE_URL = 'http://agp.test';

export interface TenantAuthHarness {
  app: NestFastifyApplication;
  env: TenantAuthEnv & { DATABASE_URL: string };
  routes: CatalogueRoute[];
  /** Every log line the app wrote. */
  logs: string[];
  jwksUrl: string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  database?: TestDatabase;
  natsPrefix?: string;
  env?: Record<string, string>;
  label?: string;
}

/** tenant-auth on its own database and NATS prefix, listening on a free port (its JWKS is fetched over HTTP). */
export async function startTenantAuth(options: HarnessOptions = {}): Promise<TenantAuthHarness & { database: TestDatabase; natsPrefix: string }> {
  const database = options.database ?? (await createTestDatabase(options.label ?? 'tenant_auth'));
  const natsPrefix = options.natsPrefix ?? uniqueNatsPrefix('ta');
  const port = await freePort();
  const env = {
    ...loadEnv(TenantAuthEnv, {
      PUBLIC_BASE_URL: BASE_URL,
      DATABASE_URL: database.url,
      NATS_URL: TEST_NATS_URL,
      NATS_PREFIX: natsPrefix,
      KEY_ENCRYPTION_SECRET: 'k'.repeat(40),
      LOG_LEVEL: 'info',
      ...options.env,
    }),
    DATABASE_URL: database.url,
  };
  const jwksUrl = `http://127.0.0.1:${port}/tenant-auth/v1/.well-known/jwks.json`;
  const logs: string[] = [];
  let routes: CatalogueRoute[] = [];
  const app = await createHttpApp({
    service: 'tenant-auth',
    logLevel: env.LOG_LEVEL,
    logDestination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString());
        done();
      },
    }),
    configureFastify: (adapter) => {
      routes = catalogueRoutes(adapter.getInstance());
    },
    imports: [
      AuthModule.forRoot(authOptionsFromEnv(env, jwksUrl)),
      EventBusModule.forRoot({ natsUrl: env.NATS_URL, prefix: natsPrefix }),
      TenantAuthModule.forRoot(env),
    ],
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    env,
    routes,
    logs,
    jwksUrl,
    database,
    natsPrefix,
    close: async () => {
      await app.close();
      if (!options.database) {
        await database.drop();
      }
      if (!options.natsPrefix) {
        await deleteNatsStreams(natsPrefix);
      }
    },
  };
}

export function bootstrapTenant(harness: TenantAuthHarness, slug: string, email = `admin@${slug}.example`): Promise<BootstrapResult> {
  return harness.app.get(BootstrapService).bootstrap({ slug, email });
}

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, unknown>;
}

export async function requestToken(
  harness: TenantAuthHarness,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<TokenAnswer> {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/tenant-auth/v1/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

export async function passwordToken(harness: TenantAuthHarness, admin: BootstrapResult): Promise<string> {
  const answer = await requestToken(harness, {
    grant_type: 'password',
    tenant: admin.tenant,
    username: admin.email,
    password: admin.password,
  });
  if (answer.status !== 200) {
    throw new Error(`password grant failed: ${JSON.stringify(answer.body)}`);
  }
  return answer.body.access_token as string;
}

import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthModule, authOptionsFromEnv } from '@agp/auth';
import { loadEnv } from '@agp/config';
import { buildOpenApiDocument, createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';
import { deleteNatsStreams } from '@agp/messaging/testing';
import {
  CatalogueRoute,
  TEST_NATS_URL,
  TestDatabase,
  catalogueRoutes,
  checkResponsesAgainst,
  createTestDatabase,
  freePort,
  uniqueNatsPrefix,
} from '@agp/testing';

import {
  BootstrapResult,
  BootstrapService,
  TENANT_AUTH_RESPONSE_SCHEMAS,
  TenantAuthEnv,
  TenantAuthModule,
} from '../src';

export const BASE_URL = 'http://agp.test';

export interface TenantAuthHarness {
  app: NestFastifyApplication;
  env: TenantAuthEnv & { DATABASE_URL: string };
  routes: CatalogueRoute[];
  /** Every log line the app wrote. */
  logs: string[];
  jwksUrl: string;
  /** How many times the JWKS was fetched. */
  jwksFetches(): number;
  close(): Promise<void>;
}

export interface HarnessOptions {
  database?: TestDatabase;
  natsPrefix?: string;
  env?: Record<string, string>;
  label?: string;
}

/** tenant-auth on its own database and NATS prefix, listening on a free port (its JWKS is fetched over HTTP). */
export async function startTenantAuth(
  options: HarnessOptions = {},
): Promise<TenantAuthHarness & { database: TestDatabase; natsPrefix: string }> {
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
  let jwksFetches = 0;
  const app = await createHttpApp({
    service: 'tenant-auth',
    logLevel: env.LOG_LEVEL,
    // As deployed: behind the gateway, whose X-Forwarded-For names the client (F17).
    trustProxyHops: 1,
    logDestination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString());
        done();
      },
    }),
    configureFastify: (adapter) => {
      routes = catalogueRoutes(adapter.getInstance());
      adapter.getInstance().addHook('onRequest', (request, _reply, done) => {
        jwksFetches += request.url.startsWith('/tenant-auth/v1/.well-known/jwks.json') ? 1 : 0;
        done();
      });
    },
    imports: [
      AuthModule.forRoot(authOptionsFromEnv(env, jwksUrl)),
      EventBusModule.forRoot({ natsUrl: env.NATS_URL, prefix: natsPrefix }),
      TenantAuthModule.forRoot(env),
    ],
  });
  await app.listen({ port, host: '127.0.0.1' });
  // Issue 18 § 2: every answer a test reads through inject is checked against the document.
  checkResponsesAgainst(app.getHttpAdapter().getInstance(), () =>
    buildOpenApiDocument(app, {
      title: 'tenant-auth',
      responses: [TENANT_AUTH_RESPONSE_SCHEMAS],
    }),
  );
  return {
    app,
    env,
    routes,
    logs,
    jwksUrl,
    jwksFetches: () => jwksFetches,
    database,
    natsPrefix,
    close: async () => {
      await app.close();
      if (!options.database) {
        await database.drop();
      }
      if (!options.natsPrefix) {
        await deleteNatsStreams(natsPrefix, TEST_NATS_URL);
      }
    },
  };
}

export function bootstrapTenant(
  harness: TenantAuthHarness,
  slug: string,
  email = `admin@${slug}.example`,
): Promise<BootstrapResult> {
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
    // A source address of its own per request, so only tests about the address limit meet it.
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': randomAddress(),
      ...headers,
    },
    payload: new URLSearchParams(form).toString(),
  });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

export function randomAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

export async function clientToken(
  harness: TenantAuthHarness,
  clientId: string,
  clientSecret: string,
  scope = 'svc:api',
): Promise<string> {
  const answer = await requestToken(harness, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
    scope,
  });
  if (answer.status !== 200) {
    throw new Error(`client_credentials grant failed: ${JSON.stringify(answer.body)}`);
  }
  return answer.body.access_token as string;
}

export async function passwordToken(
  harness: TenantAuthHarness,
  admin: BootstrapResult,
): Promise<string> {
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

/** A parsed JSON body (tests read its fields freely). */
export type Json = ReturnType<typeof JSON.parse>;

export interface Api {
  get(url: string): Promise<{ status: number; body: Json }>;
  post(
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: Json; headers: Record<string, unknown> }>;
  patch(url: string, payload: unknown): Promise<{ status: number; body: Json }>;
  delete(url: string): Promise<{ status: number; body: Json }>;
}

/** Calls as the holder of `token`, over HTTP through fastify's inject. */
export function apiAs(harness: TenantAuthHarness, token: string): Api {
  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) => {
    const response = await harness.app.inject({
      method,
      url: `/tenant-auth/v1${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return {
      status: response.statusCode,
      body: response.body ? response.json() : undefined,
      headers: response.headers,
    };
  };
  return {
    get: (url) => call('GET', url),
    post: (url, payload) => call('POST', url, payload ?? {}),
    patch: (url, payload) => call('PATCH', url, payload),
    delete: (url) => call('DELETE', url),
  };
}

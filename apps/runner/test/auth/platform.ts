import { randomBytes } from 'node:crypto';

import { DynamicModule } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AUDIT_RESPONSE_SCHEMAS, AuditEnv, AuditModule } from '@agp/audit';
import { AuthModule, authOptionsFromEnv } from '@agp/auth';
import { CoreEnv, loadEnv } from '@agp/config';
import { ResponseSchemas, createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';
import { RELAY_RESPONSE_SCHEMAS, RelayEnv, RelayModule } from '@agp/relay';
import { TENANT_AUTH_RESPONSE_SCHEMAS, TenantAuthEnv, TenantAuthModule } from '@agp/tenant-auth';
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

import { GatewayEnv, createGatewayApp } from '@agp/api-gateway';

export const BASE_URL = 'http://agp.test';

export interface ServiceUnderTest {
  name: string;
  app: NestFastifyApplication;
  routes: CatalogueRoute[];
}

/** The three services as separate apps (their own verifiers and revocation replicas) behind a gateway. */
export interface Platform {
  tenantAuth: ServiceUnderTest;
  services: ServiceUnderTest[];
  gateway: NestFastifyApplication;
  close(): Promise<void>;
}

async function startService(
  name: string,
  port: number,
  env: CoreEnv,
  jwksUrl: string,
  module: DynamicModule,
  responses: ResponseSchemas,
): Promise<ServiceUnderTest> {
  let routes: CatalogueRoute[] = [];
  const app = await createHttpApp({
    service: name,
    logLevel: 'silent',
    // As each service's main.ts: its own description at /openapi.json, joined by the gateway.
    openApi: { title: name, responses: [responses] },
    configureFastify: (adapter) => {
      routes = catalogueRoutes(adapter.getInstance());
    },
    imports: [
      AuthModule.forRoot(authOptionsFromEnv(env, jwksUrl)),
      EventBusModule.forRoot({ natsUrl: env.NATS_URL, prefix: env.NATS_PREFIX }),
      module,
    ],
  });
  await app.listen({ port, host: '127.0.0.1' });
  // Issue 18 § 2: what a test reads from a service is checked against its own document.
  checkResponsesAgainst(app.getHttpAdapter().getInstance(), servedDocument);
  return { name, app, routes };
}

export async function startPlatform(): Promise<Platform> {
  const database: TestDatabase = await createTestDatabase('gateway_auth');
  const prefix = uniqueNatsPrefix('gwauth');
  const [tenantAuthPort, relayPort, auditPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const common = {
    PUBLIC_BASE_URL: BASE_URL,
    DATABASE_URL: database.url,
    NATS_URL: TEST_NATS_URL,
    NATS_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    SECRETS_KEY: randomBytes(32).toString('base64'),
  };
  const jwksUrl = `http://127.0.0.1:${tenantAuthPort}/tenant-auth/v1/.well-known/jwks.json`;
  const tenantAuthEnv = loadEnv(TenantAuthEnv, {
    ...common,
    KEY_ENCRYPTION_SECRET: 'k'.repeat(40),
    TOKEN_RATE_LIMIT_PER_ADDRESS: '10000',
  });
  const relayEnv = loadEnv(RelayEnv, common);
  const auditEnv = loadEnv(AuditEnv, common);
  const tenantAuth = await startService(
    'tenant-auth',
    tenantAuthPort,
    tenantAuthEnv,
    jwksUrl,
    TenantAuthModule.forRoot({ ...tenantAuthEnv, DATABASE_URL: database.url }),
    TENANT_AUTH_RESPONSE_SCHEMAS,
  );
  const relay = await startService(
    'relay',
    relayPort,
    relayEnv,
    jwksUrl,
    RelayModule.forRoot({ ...relayEnv, DATABASE_URL: database.url }),
    RELAY_RESPONSE_SCHEMAS,
  );
  const audit = await startService(
    'audit',
    auditPort,
    auditEnv,
    jwksUrl,
    AuditModule.forRoot({ ...auditEnv, DATABASE_URL: database.url }),
    AUDIT_RESPONSE_SCHEMAS,
  );
  const gateway = await createGatewayApp(
    loadEnv(GatewayEnv, {
      ...common,
      TENANT_AUTH_URL: `http://127.0.0.1:${tenantAuthPort}`,
      RELAY_URL: `http://127.0.0.1:${relayPort}`,
      AUDIT_URL: `http://127.0.0.1:${auditPort}`,
    }),
  );
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  checkResponsesAgainst(gateway.getHttpAdapter().getInstance(), servedDocument);
  const services = [tenantAuth, relay, audit];
  return {
    tenantAuth,
    services,
    gateway,
    close: async () => {
      await gateway.close();
      for (const service of services.reverse()) {
        await service.app.close();
      }
      await database.drop();
      await deleteNatsStreams(prefix, TEST_NATS_URL);
    },
  };
}

/** The document an app serves at `/openapi.json` (the gateway's: the three services' joined). */
async function servedDocument(inject: FastifyInstance['inject']): Promise<object> {
  const answer = await inject({ method: 'GET', url: '/openapi.json' });
  if (answer.statusCode !== 200) {
    throw new Error(`/openapi.json answered ${answer.statusCode}: ${answer.body}`);
  }
  return answer.json<object>();
}

import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';

import { DynamicModule } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuditEnv, AuditModule } from '@agp/audit';
import { AuthModule, authOptionsFromEnv } from '@agp/auth';
import { CoreEnv, loadEnv } from '@agp/config';
import { createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';
import { RelayEnv, RelayModule } from '@agp/relay';
import { BootstrapService, TenantAuthEnv, TenantAuthModule } from '@agp/tenant-auth';
import { deleteNatsStreams } from '@agp/messaging/testing';
import {
  TEST_NATS_URL,
  TestDatabase,
  createTestDatabase,
  freePort,
  uniqueNatsPrefix,
} from '@agp/testing';

import { GatewayEnv, createGatewayApp } from '@agp/api-gateway';

/** D8: tokens name this base URL; `mcp:call` tokens have the audience `${MCP_BASE_URL}/relay`. */
export const MCP_BASE_URL = 'http://agp.test';

/**
 * D2's two shapes: `services` is production's (tenant-auth, relay and audit as separate
 * applications on their own ports, NATS JetStream between them, the gateway in front verifying
 * tokens); `embedded` is the one-process runner's (the three modules composed in one application,
 * events in-process, no proxy hop).
 */
export type PlatformMode = 'services' | 'embedded';

export interface McpPlatform {
  mode: PlatformMode;
  /** Where an agent connects: the gateway, or the one process that serves every prefix. */
  baseUrl: string;
  /** The application that runs tenant-auth's module (for the bootstrap service). */
  tenantAuth: NestFastifyApplication;
  /** The platform's own database: what a test reads to check what was stored (at rest). */
  databaseUrl: string;
  /** NATS_PREFIX of the run: services publish on its events stream (embedded: in-process only). */
  natsPrefix: string;
  /** The application that runs the audit module (what raises alerts; embedded: the one process). */
  audit?: NestFastifyApplication;
  /** The application that runs the relay module (embedded: the one process). */
  relay?: NestFastifyApplication;
  /**
   * Services only: one more relay replica on the same database and NATS prefix, reached directly
   * (not through the gateway), for what must hold on every replica (D32, D35).
   */
  startRelayReplica?(): Promise<string>;
  /** Services only: stops a replica started above (as a crash would, mid-call). */
  stopRelayReplica?(url: string): Promise<void>;
  close(): Promise<void>;
}

/** Seals MCP server credentials (D37); the test reads rows with it to check what was stored. */
export const PLATFORM_SECRETS_KEY = randomBytes(32).toString('base64');

/** Variables shared by every service of the platform under test. */
function sharedEnv(
  database: TestDatabase,
  prefix: string,
  natsUrl: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    PUBLIC_BASE_URL: MCP_BASE_URL,
    DATABASE_URL: database.url,
    NATS_URL: natsUrl,
    NATS_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    KEY_ENCRYPTION_SECRET: 'k'.repeat(40),
    // D37: one key for every relay replica of the platform under test.
    SECRETS_KEY: PLATFORM_SECRETS_KEY,
    TOKEN_RATE_LIMIT_PER_ADDRESS: '100000',
    // D37: the test MCP server listens on 127.0.0.1, as the embedded default allows.
    EGRESS_ALLOW_PRIVATE: 'true',
    POLICY_CACHE_TTL_MS: '3600000',
    ...overrides,
  };
}

/**
 * Closes an application whatever its clients left open: an SSE stream an SDK client reopened after
 * the test closed it (its reconnect timer) would otherwise keep the server waiting for ever.
 */
async function closeNow(app: NestFastifyApplication): Promise<void> {
  const closing = app.close();
  app.getHttpServer().closeAllConnections();
  await closing;
}

function baseUrlOf(app: NestFastifyApplication): string {
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}

async function startService(
  name: string,
  port: number,
  env: CoreEnv,
  jwksUrl: string,
  module: DynamicModule,
): Promise<NestFastifyApplication> {
  const app = await createHttpApp({
    service: name,
    logLevel: 'silent',
    // As deployed: behind the gateway, whose X-Forwarded-For names the client.
    trustProxyHops: 1,
    imports: [
      AuthModule.forRoot(authOptionsFromEnv(env, jwksUrl)),
      EventBusModule.forRoot({ natsUrl: env.NATS_URL, prefix: env.NATS_PREFIX }),
      module,
    ],
  });
  await app.listen({ port, host: '127.0.0.1' });
  return app;
}

async function startServices(
  database: TestDatabase,
  prefix: string,
  overrides: Record<string, string>,
): Promise<McpPlatform> {
  const gatewayPort = await freePort();
  const env = sharedEnv(database, prefix, TEST_NATS_URL, ownAddress(overrides, gatewayPort));
  const [tenantAuthPort, relayPort, auditPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const jwksUrl = `http://127.0.0.1:${tenantAuthPort}/tenant-auth/v1/.well-known/jwks.json`;
  const tenantAuthEnv = loadEnv(TenantAuthEnv, env);
  const relayEnv = loadEnv(RelayEnv, env);
  const auditEnv = loadEnv(AuditEnv, env);
  const tenantAuth = await startService(
    'tenant-auth',
    tenantAuthPort,
    tenantAuthEnv,
    jwksUrl,
    TenantAuthModule.forRoot({ ...tenantAuthEnv, DATABASE_URL: database.url }),
  );
  const relay = await startService(
    'relay',
    relayPort,
    relayEnv,
    jwksUrl,
    RelayModule.forRoot({ ...relayEnv, DATABASE_URL: database.url }),
  );
  const audit = await startService(
    'audit',
    auditPort,
    auditEnv,
    jwksUrl,
    AuditModule.forRoot({ ...auditEnv, DATABASE_URL: database.url }),
  );
  const gateway = await createGatewayApp(
    loadEnv(GatewayEnv, {
      ...env,
      TENANT_AUTH_URL: baseUrlOf(tenantAuth),
      RELAY_URL: baseUrlOf(relay),
      AUDIT_URL: baseUrlOf(audit),
    }),
  );
  await gateway.listen({ port: gatewayPort, host: '127.0.0.1' });
  const replicas: NestFastifyApplication[] = [];
  return {
    mode: 'services',
    startRelayReplica: async () => {
      const replica = await startService(
        'relay',
        await freePort(),
        relayEnv,
        jwksUrl,
        RelayModule.forRoot({ ...relayEnv, DATABASE_URL: database.url }),
      );
      replicas.push(replica);
      return baseUrlOf(replica);
    },
    stopRelayReplica: async (url) => {
      const replica = replicas.find((r) => baseUrlOf(r) === url);
      if (replica) {
        replicas.splice(replicas.indexOf(replica), 1);
        replica.getHttpServer().closeAllConnections();
        await replica.close();
      }
    },
    baseUrl: baseUrlOf(gateway),
    tenantAuth,
    audit,
    relay,
    databaseUrl: database.url,
    natsPrefix: prefix,
    close: async () => {
      for (const app of [gateway, ...replicas, audit, relay, tenantAuth]) {
        await closeNow(app);
      }
    },
  };
}

/** As apps/runner/src/main.ts composes them, with PostgreSQL given and no NATS. */
async function startEmbedded(
  database: TestDatabase,
  prefix: string,
  overrides: Record<string, string>,
): Promise<McpPlatform> {
  const port = await freePort();
  const env = {
    ...sharedEnv(database, prefix, '', ownAddress(overrides, port)),
    PORT: String(port),
  };
  delete (env as Record<string, string | undefined>).NATS_URL;
  const tenantAuthEnv = loadEnv(TenantAuthEnv, env);
  const app = await createHttpApp({
    service: 'agp',
    logLevel: 'silent',
    imports: [
      AuthModule.forRoot(
        authOptionsFromEnv(
          tenantAuthEnv,
          `http://127.0.0.1:${port}/tenant-auth/v1/.well-known/jwks.json`,
        ),
      ),
      EventBusModule.forRoot({ prefix }),
      TenantAuthModule.forRoot({ ...tenantAuthEnv, DATABASE_URL: database.url }),
      RelayModule.forRoot({ ...loadEnv(RelayEnv, env), DATABASE_URL: database.url }),
      AuditModule.forRoot({ ...loadEnv(AuditEnv, env), DATABASE_URL: database.url }),
    ],
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    mode: 'embedded',
    baseUrl: baseUrlOf(app),
    tenantAuth: app,
    audit: app,
    relay: app,
    databaseUrl: database.url,
    natsPrefix: prefix,
    close: () => closeNow(app),
  };
}

/**
 * PUBLIC_BASE_URL `self`: the platform's own address, for clients that follow the URLs it
 * advertises (an MCP client's discovery, D43) rather than the fixed MCP_BASE_URL.
 */
export const OWN_ADDRESS = 'self';

function ownAddress(overrides: Record<string, string>, port: number): Record<string, string> {
  return overrides.PUBLIC_BASE_URL === OWN_ADDRESS
    ? { ...overrides, PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }
    : overrides;
}

/**
 * The platform in one of D2's shapes, on a database and NATS prefix of its own; `overrides` sets
 * variables of every service (a short TOKEN_TTL_SEC, say).
 */
export async function startMcpPlatform(
  mode: PlatformMode,
  overrides: Record<string, string> = {},
): Promise<McpPlatform> {
  const database = await createTestDatabase(`mcp_${mode}`);
  const prefix = uniqueNatsPrefix(`mcp${mode.slice(0, 3)}`);
  const platform =
    mode === 'services'
      ? await startServices(database, prefix, overrides)
      : await startEmbedded(database, prefix, overrides);
  return {
    ...platform,
    close: async () => {
      await platform.close();
      await database.drop();
      if (mode === 'services') {
        await deleteNatsStreams(prefix, TEST_NATS_URL);
      }
    },
  };
}

export { BootstrapService };

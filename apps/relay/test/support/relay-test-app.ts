import { randomBytes, randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthModule } from '@agp/auth';
import { buildOpenApiDocument, createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';
import { TEST_NATS_URL, TestTokenIssuer, checkResponsesAgainst } from '@agp/testing';

import { RELAY_RESPONSE_SCHEMAS } from '../../src/openapi/response-schemas';
import { RelayModule } from '../../src/relay.module';

export interface RelayTestOptions {
  databaseUrl: string;
  prefix: string;
  issuer: TestTokenIssuer;
  /** Large by default, so that a test sees the broadcast drop the cache, not the TTL. */
  cacheTtlMs?: number;
  /** D37: EGRESS_ALLOW_PRIVATE (false by default, as standalone). */
  egressAllowPrivate?: boolean;
  /** D19: RelayEnv's WEBHOOK_* (defaults as in production but a 100 ms poll). */
  webhooks?: { retryBaseMs?: number; maxAttempts?: number; pollMs?: number; timeoutMs?: number };
  /** D58: where the console is, for the links notifications carry. */
  publicBaseUrl?: string;
  /** W19: NOTIFICATION_SMTP_CA_FILE (a test SMTP server's self-signed certificate). */
  smtpCaFile?: string;
  /** F54: EVALUATION_RUN_POLL_MS (200 ms by default; long to see that runs start with a kick). */
  runPollMs?: number;
}

/** SECRETS_KEY of every replica a test file starts (D37): what one seals, another opens. */
export const TEST_SECRETS_KEY = randomBytes(32).toString('base64');

/** One relay replica as its process would run it: real PostgreSQL, real NATS JetStream. */
export async function startRelay(options: RelayTestOptions): Promise<NestFastifyApplication> {
  const app = await createHttpApp({
    service: 'relay',
    logLevel: 'silent',
    imports: [
      AuthModule.forRoot(options.issuer.authOptions()),
      EventBusModule.forRoot({ natsUrl: TEST_NATS_URL, prefix: options.prefix }),
      RelayModule.forRoot({
        DATABASE_URL: options.databaseUrl,
        NATS_URL: TEST_NATS_URL,
        NATS_PREFIX: options.prefix,
        POLICY_CACHE_TTL_MS: options.cacheTtlMs ?? 3_600_000,
        EVALUATION_RUN_POLL_MS: options.runPollMs ?? 200,
        SECRETS_KEY: TEST_SECRETS_KEY,
        EGRESS_ALLOW_PRIVATE: options.egressAllowPrivate ?? false,
        WEBHOOK_RETRY_BASE_MS: options.webhooks?.retryBaseMs,
        WEBHOOK_MAX_ATTEMPTS: options.webhooks?.maxAttempts,
        WEBHOOK_POLL_MS: options.webhooks?.pollMs ?? 100,
        WEBHOOK_TIMEOUT_MS: options.webhooks?.timeoutMs,
        PUBLIC_BASE_URL: options.publicBaseUrl,
        NOTIFICATION_SMTP_CA_FILE: options.smtpCaFile,
      }),
    ],
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  // Issue 18 § 2: every answer a test reads is checked against the document.
  checkResponsesAgainst(app.getHttpAdapter().getInstance(), () =>
    buildOpenApiDocument(app, {
      title: 'relay',
      responses: [RELAY_RESPONSE_SCHEMAS],
    }),
  );
  return app;
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

/** A caller of one tenant with a set of permissions. */
export class TestCaller {
  readonly subject = randomUUID();

  private constructor(
    readonly tenantId: string,
    private readonly token: string,
  ) {}

  static async create(
    issuer: TestTokenIssuer,
    tenantId: string,
    perms: string[],
    kind: 'USER' | 'SERVICE' | 'AGENT' = 'USER',
    subject: string = randomUUID(),
  ): Promise<TestCaller> {
    const token = await issuer.token({
      tenantId,
      subject,
      perms,
      kind,
      name: `caller-${subject.slice(0, 8)}`,
    });
    const caller = new TestCaller(tenantId, token);
    Object.assign(caller, { subject });
    return caller;
  }

  async call<T = Record<string, unknown>>(
    app: NestFastifyApplication,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<ApiResponse<T>> {
    const response = await app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return {
      status: response.statusCode,
      body: (response.body ? JSON.parse(response.body) : undefined) as T,
      headers: response.headers,
    };
  }
}

export const ADMIN_PERMS = [
  'TENANT:ADMIN',
  'REGISTRY:ADMIN',
  'MCP_REGISTRY:ADMIN',
  'CHANNELS:ADMIN',
  'LLM_GATEWAY:ADMIN',
];

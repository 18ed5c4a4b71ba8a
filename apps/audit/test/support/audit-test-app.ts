import { randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthModule } from '@agp/auth';
import { AuditEventType, AuditableEventData, EVENT_VERSION, EventEnvelope } from '@agp/contracts';
import { loadEnv } from '@agp/config';
import { buildOpenApiDocument, createHttpApp } from '@agp/http';
import { EventBusModule } from '@agp/messaging';
import { TEST_NATS_URL, TestTokenIssuer, checkResponsesAgainst } from '@agp/testing';

import { AuditModule } from '../../src/audit.module';
import { AuditEnv } from '../../src/config/audit.env';
import { AUDIT_RESPONSE_SCHEMAS } from '../../src/openapi/response-schemas';

export interface AuditTestOptions {
  databaseUrl: string;
  /** Set: JetStream under this prefix; unset: the in-process bus. */
  prefix?: string;
  natsUrl?: string;
  issuer: TestTokenIssuer;
  env?: Record<string, string>;
}

/** One audit replica as its process runs it, on a test database (and NATS prefix). */
export async function startAudit(options: AuditTestOptions): Promise<NestFastifyApplication> {
  const natsUrl = options.prefix ? (options.natsUrl ?? TEST_NATS_URL) : undefined;
  const env = loadEnv(AuditEnv, {
    DATABASE_URL: options.databaseUrl,
    ...(natsUrl ? { NATS_URL: natsUrl, NATS_PREFIX: options.prefix } : {}),
    AUDIT_SIGNING_KEY_SECRET: 'test-secret-test-secret-test-secret-0123',
    ...options.env,
  });
  const app = await createHttpApp({
    service: 'audit',
    logLevel: 'silent',
    imports: [
      AuthModule.forRoot(options.issuer.authOptions()),
      EventBusModule.forRoot({ natsUrl, prefix: options.prefix ?? 'agp' }),
      AuditModule.forRoot({ ...env, DATABASE_URL: options.databaseUrl }),
    ],
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  // Issue 18 § 2: every answer a test reads is checked against the document.
  checkResponsesAgainst(app.getHttpAdapter().getInstance(), () =>
    buildOpenApiDocument(app, {
      title: 'audit',
      responses: [AUDIT_RESPONSE_SCHEMAS],
    }),
  );
  return app;
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  text: string;
  headers: Record<string, unknown>;
}

/** A caller of one tenant with a set of permissions. */
export class TestCaller {
  private constructor(
    readonly tenantId: string,
    readonly subject: string,
    private readonly token: string,
  ) {}

  static async create(
    issuer: TestTokenIssuer,
    tenantId: string,
    perms: string[],
  ): Promise<TestCaller> {
    const subject = randomUUID();
    const token = await issuer.token({
      tenantId,
      subject,
      perms,
      name: `caller-${subject.slice(0, 8)}`,
    });
    return new TestCaller(tenantId, subject, token);
  }

  async call<T = Record<string, unknown>>(
    app: NestFastifyApplication,
    method: 'GET' | 'PUT',
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
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return {
      status: response.statusCode,
      body: (isJson ? response.json() : {}) as T,
      text: response.body,
      headers: response.headers,
    };
  }
}

/** An audit event envelope as a producer's outbox would publish it. */
export function auditEnvelope(
  tenantId: string,
  type: AuditEventType,
  data: AuditableEventData = {},
  overrides: Partial<EventEnvelope> = {},
): EventEnvelope<AuditEventType, AuditableEventData> {
  return {
    id: randomUUID(),
    type,
    version: EVENT_VERSION,
    occurredAt: new Date().toISOString(),
    tenantId,
    correlationId: randomUUID(),
    data,
    ...overrides,
  } as EventEnvelope<AuditEventType, AuditableEventData>;
}

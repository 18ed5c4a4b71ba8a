import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { deleteNatsStreams } from '@agp/messaging/testing';
import {
  TEST_NATS_URL,
  TestDatabase,
  TestTokenIssuer,
  createTestDatabase,
  eventually,
  uniqueNatsPrefix,
} from '@agp/testing';

import { EventPublisher, EventTap } from './event-tools';
import {
  ADMIN_PERMS,
  ApiResponse,
  RelayTestOptions,
  TestCaller,
  startRelay,
} from './relay-test-app';

export type RelayBedOptions = Omit<RelayTestOptions, 'databaseUrl' | 'prefix' | 'issuer'>;

/**
 * One relay for a test file: its own database and NATS prefix, an event publisher standing in for
 * the other services, a tap on everything published, an administrator of `tenantId` and one of
 * another tenant. Made inside `describe`: it registers the `beforeAll` that starts it and the
 * `afterAll` that takes it all down, so the fields are there once the tests run.
 */
export class RelayBed {
  readonly tenantId = randomUUID();
  db!: TestDatabase;
  prefix!: string;
  issuer!: TestTokenIssuer;
  /** What `app` was started with: another replica on the same database and prefix starts from it. */
  options!: RelayTestOptions;
  app!: NestFastifyApplication;
  publisher!: EventPublisher;
  tap!: EventTap;
  admin!: TestCaller;
  /** An administrator of another tenant: what a cross-tenant read or write looks like. */
  stranger!: TestCaller;

  static use(name: string, options: RelayBedOptions = {}): RelayBed {
    const bed = new RelayBed();
    beforeAll(() => bed.start(name, options));
    afterAll(() => bed.stop());
    return bed;
  }

  /** A request to this relay as the tenant's administrator. */
  call<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<ApiResponse<T>> {
    return this.admin.call<T>(this.app, method, url, body);
  }

  /** A caller of this bed's tenant (or of `tenantId`) with these permissions. */
  caller(perms: string[], tenantId = this.tenantId): Promise<TestCaller> {
    return TestCaller.create(this.issuer, tenantId, perms);
  }

  /** Another relay process on the same database and NATS prefix; the caller closes it. */
  replica(): Promise<NestFastifyApplication> {
    return startRelay(this.options);
  }

  /** An agent created in tenant-auth, as its AGENT_LIFECYCLE reaches the relay; once projected. */
  async agent(owner: TestCaller = this.admin): Promise<string> {
    const agentId = randomUUID();
    await this.publisher.publish('AGENT_LIFECYCLE', owner.tenantId, {
      agentId,
      name: `agent-${agentId.slice(0, 8)}`,
      change: 'CREATED',
      status: 'ACTIVE',
      permissions: [],
    });
    await eventually(async () =>
      expect((await owner.call(this.app, 'GET', `/relay/v1/agents/${agentId}`)).status).toBe(200),
    );
    return agentId;
  }

  private async start(name: string, options: RelayBedOptions): Promise<void> {
    this.db = await createTestDatabase(`relay_${name}`);
    this.prefix = uniqueNatsPrefix(`relay${name}`);
    this.issuer = await TestTokenIssuer.create();
    this.options = {
      ...options,
      databaseUrl: this.db.url,
      prefix: this.prefix,
      issuer: this.issuer,
    };
    this.app = await startRelay(this.options);
    this.publisher = await EventPublisher.connect(this.prefix);
    this.tap = await EventTap.open(this.prefix);
    this.admin = await this.caller(ADMIN_PERMS);
    this.stranger = await this.caller(ADMIN_PERMS, randomUUID());
  }

  private async stop(): Promise<void> {
    await this.tap?.close();
    await this.publisher?.close();
    await this.app?.close();
    await this.db?.drop();
    if (this.prefix) {
      await deleteNatsStreams(this.prefix, TEST_NATS_URL);
    }
  }
}

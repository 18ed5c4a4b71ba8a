import { randomUUID } from 'node:crypto';

import {
  Global,
  INestApplicationContext,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Database, DatabaseModule, databaseToken } from '@agp/database';
import { ROOT_LOGGER, ReadinessRegistry, StartupHooks, StartupHooksRunner } from '@agp/http';
import { createTestDatabase, eventually, TestDatabase } from '@agp/testing';

import {
  CreateMessagingTestTables1700000000000,
  TEST_SCHEMA,
  openTestSchema,
  outboxSize,
  placeOrder,
  recordEffect,
  silentLogger,
  storedEffects,
} from '../test/support/messaging-test-schema';
import { EventConsumers } from './event-consumers';
import { EventOutbox } from './event-outbox';
import { EventBusModule, MessagingModule, consumersToken, outboxToken } from './messaging.module';

const SERVICE = 'wiring';
const DATABASE = databaseToken(SERVICE);

@Global()
@Module({
  providers: [ReadinessRegistry, StartupHooks, { provide: ROOT_LOGGER, useValue: silentLogger }],
  exports: [ReadinessRegistry, StartupHooks, ROOT_LOGGER],
})
class TestCoreModule {}

/** A service's listener as the apps write them: registers in onModuleInit. */
@Injectable()
class EffectsListener implements OnModuleInit {
  constructor(@Inject(consumersToken(SERVICE)) private readonly consumers: EventConsumers) {}

  onModuleInit(): void {
    this.consumers.register('effects', ['HITL'], (event, tx) =>
      recordEffect(tx, event, 'effects', 'app'),
    );
  }
}

@Module({ providers: [EffectsListener] })
class EffectsModule {}

const LATE_SERVICE = 'late';
const LATE_DATABASE = databaseToken(LATE_SERVICE);

/** Another service's listener that subscribes late: after I/O in its own onApplicationBootstrap. */
@Injectable()
class LateListener implements OnApplicationBootstrap {
  constructor(
    @Inject(consumersToken(LATE_SERVICE)) private readonly consumers: EventConsumers,
    @Inject(LATE_DATABASE) private readonly database: Database,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Warming something up first, as a real listener may: the other relays must not run meanwhile.
    await this.database.asSystem((tx) => tx.query('SELECT pg_sleep(0.5)'));
    this.consumers.register('late-effects', ['HITL'], (event, tx) =>
      recordEffect(tx, event, 'late-effects', 'late'),
    );
    await this.consumers.start();
  }
}

@Module({ providers: [LateListener] })
class LateModule {}

describe(MessagingModule.name, () => {
  let testDatabase: TestDatabase;
  let app: INestApplicationContext | undefined;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('wiring');
  });

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  afterAll(async () => {
    await testDatabase?.drop();
  });

  async function startApp(): Promise<INestApplicationContext> {
    app = await NestFactory.createApplicationContext(
      {
        module: class WiringRootModule {},
        providers: [StartupHooksRunner],
        imports: [
          TestCoreModule,
          EventBusModule.forRoot({ prefix: 'unused' }),
          DatabaseModule.forRoot({
            token: DATABASE,
            url: testDatabase.url,
            schema: TEST_SCHEMA,
            entities: [],
            migrations: [CreateMessagingTestTables1700000000000],
          }),
          MessagingModule.forService({ service: SERVICE, databaseToken: DATABASE }),
          EffectsModule,
        ],
      },
      { logger: false },
    );
    return app;
  }

  it('should deliver the rows left in the outbox before the start to a listener registered in onModuleInit', async () => {
    const before = await openTestSchema(testDatabase.url);
    const leftOver = await placeOrder(before, new EventOutbox(before), randomUUID(), 'left over');
    await before.close();

    const started = await startApp();

    const database = started.get<Database>(DATABASE);
    // The effect commits in the consumer's transaction, the outbox row goes in the relay's right after.
    await eventually(async () => {
      expect((await storedEffects(database)).map((e) => e.eventId)).toContain(leftOver.id);
      expect(await outboxSize(database)).toBe(0);
    });
  });

  it('should publish an event added through the injected outbox once its transaction commits', async () => {
    const started = await startApp();
    const database = started.get<Database>(DATABASE);
    const outbox = started.get<EventOutbox>(outboxToken(SERVICE));

    const event = await placeOrder(database, outbox, randomUUID(), 'through the module');

    await eventually(async () => {
      expect((await storedEffects(database)).map((e) => e.eventId)).toContain(event.id);
      expect(await outboxSize(database)).toBe(0);
    });
  });

  it('should start publishing only after every service of the process has subscribed', async () => {
    const before = await openTestSchema(testDatabase.url);
    const leftOver = await placeOrder(
      before,
      new EventOutbox(before),
      randomUUID(),
      'for a late subscriber',
    );
    await before.close();

    app = await NestFactory.createApplicationContext(
      {
        module: class TwoServicesRootModule {},
        providers: [StartupHooksRunner],
        imports: [
          TestCoreModule,
          EventBusModule.forRoot({ prefix: 'unused' }),
          DatabaseModule.forRoot({
            token: DATABASE,
            url: testDatabase.url,
            schema: TEST_SCHEMA,
            entities: [],
            migrations: [CreateMessagingTestTables1700000000000],
          }),
          MessagingModule.forService({ service: SERVICE, databaseToken: DATABASE }),
          DatabaseModule.forRoot({
            token: LATE_DATABASE,
            url: testDatabase.url,
            schema: TEST_SCHEMA,
            entities: [],
            migrations: [CreateMessagingTestTables1700000000000],
          }),
          MessagingModule.forService({ service: LATE_SERVICE, databaseToken: LATE_DATABASE }),
          LateModule,
        ],
      },
      { logger: false },
    );

    const database = app.get<Database>(DATABASE);
    await eventually(async () => {
      const effects = await storedEffects(database);
      expect(effects.filter((e) => e.eventId === leftOver.id).map((e) => e.consumer)).toContain(
        'late-effects',
      );
    });
  });
});

import { randomUUID } from 'node:crypto';

import { Global, INestApplicationContext, Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Database, DatabaseModule, databaseToken } from '@agp/database';
import { ROOT_LOGGER, ReadinessRegistry } from '@agp/http';
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
  providers: [ReadinessRegistry, { provide: ROOT_LOGGER, useValue: silentLogger }],
  exports: [ReadinessRegistry, ROOT_LOGGER],
})
class TestCoreModule {}

/** A service's listener as the apps write them: registers in onModuleInit. */
@Injectable()
class EffectsListener implements OnModuleInit {
  constructor(@Inject(consumersToken(SERVICE)) private readonly consumers: EventConsumers) {}

  onModuleInit(): void {
    this.consumers.register('effects', ['HITL'], (event, tx) => recordEffect(tx, event, 'effects', 'app'));
  }
}

@Module({ providers: [EffectsListener] })
class EffectsModule {}

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
    await eventually(async () => expect((await storedEffects(database)).map((e) => e.eventId)).toContain(leftOver.id));
    expect(await outboxSize(database)).toBe(0);
  });

  it('should publish an event added through the injected outbox once its transaction commits', async () => {
    const started = await startApp();
    const database = started.get<Database>(DATABASE);
    const outbox = started.get<EventOutbox>(outboxToken(SERVICE));

    const event = await placeOrder(database, outbox, randomUUID(), 'through the module');

    await eventually(async () => expect((await storedEffects(database)).map((e) => e.eventId)).toContain(event.id));
    expect(await outboxSize(database)).toBe(0);
  });
});

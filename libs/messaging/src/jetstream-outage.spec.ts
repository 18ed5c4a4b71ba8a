import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';
import {
  createTestDatabase,
  eventually,
  startNatsServer,
  TestDatabase,
  TestNatsServer,
  uniqueNatsPrefix,
} from '@agp/testing';
import pino from 'pino';

import {
  consumerFacts,
  eventsStreamFacts,
  testJetStreamOptions,
} from '../test/support/jetstream-test-kit';
import {
  countsById,
  openTestSchema,
  outboxSize,
  placeOrder,
  recordEffect,
  storedEffects,
} from '../test/support/messaging-test-schema';
import { EventConsumers } from './event-consumers';
import { EventOutbox } from './event-outbox';
import { JetStreamTransport } from './jetstream.transport';
import { OutboxRelay } from './outbox-relay';

/**
 * D5 "a producer never loses an event it has committed": a NATS server of the test's own is
 * stopped for real while events are committed, then started again on the same port and storage.
 */
describe(`${JetStreamTransport.name} when NATS goes away`, () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let server: TestNatsServer | undefined;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    testDatabase = await createTestDatabase('outage');
    database = await openTestSchema(testDatabase.url);
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup();
    }
    await server?.destroy();
    await database?.close();
    await testDatabase?.drop();
  });

  it('should publish the events committed while NATS was down once it is back, none lost and none twice', async () => {
    server = await startNatsServer();
    const { port, storeDir } = server;
    const options = testJetStreamOptions(uniqueNatsPrefix('outage'), {
      url: server.url,
      publishTimeoutMs: 500,
    });
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const transport = await JetStreamTransport.connect(options, logger);
    cleanups.push(() => transport.close());
    const relay = new OutboxRelay(database, transport, logger, { idleMs: 20, maxBackoffMs: 300 });
    const outbox = new EventOutbox(database);
    outbox.notifyOnAdd(() => relay.kick());
    const consumers = new EventConsumers('svc', database, transport);
    consumers.register('effects', ['HITL'], (event, tx) => recordEffect(tx, event, 'effects', 'a'));
    await consumers.start();
    relay.start();
    cleanups.push(() => relay.stop());
    const tenantId = randomUUID();
    const ids = [(await placeOrder(database, outbox, tenantId, 'before the outage')).id];
    await eventually(async () => expect(await storedEffects(database)).toHaveLength(1));

    await server.stop();
    for (let i = 0; i < 10; i += 1) {
      ids.push((await placeOrder(database, outbox, tenantId, `during the outage ${i}`)).id);
    }
    await eventually(() =>
      expect(warnings.some((line) => line.includes('outbox publish failed'))).toBe(true),
    );
    expect(await outboxSize(database)).toBeGreaterThan(0);
    server = await startNatsServer({ port, storeDir });

    await eventually(async () => expect(await outboxSize(database)).toBe(0), 400);
    await eventually(async () => expect(await storedEffects(database)).toHaveLength(11), 400);
    ids.push((await placeOrder(database, outbox, tenantId, 'after the outage')).id);
    await eventually(async () => expect(await storedEffects(database)).toHaveLength(12));
    const effects = await storedEffects(database);
    expect([...countsById(effects).keys()].sort()).toEqual([...ids].sort());
    expect([...countsById(effects).values()].every((count) => count === 1)).toBe(true);
    expect(await eventsStreamFacts(options.prefix, server.url)).toEqual({ messages: 12 });
    await eventually(async () =>
      expect(await consumerFacts(options.prefix, 'svc-effects', server?.url)).toMatchObject({
        ackPending: 0,
        ackFloor: 12,
      }),
    );
  }, 60_000);
});

import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';
import { createTestDatabase, TestDatabase } from '@agp/testing';

import {
  TEST_SCHEMA,
  openTestSchema,
  outboxSize,
  placeOrder,
  recordEffect,
  silentLogger,
  storedEffects,
} from '../test/support/messaging-test-schema';
import { EventConsumers } from './event-consumers';
import { PoisonMessageError } from './event-transport';
import { EventOutbox, buildEvent } from './event-outbox';
import { InProcessTransport } from './in-process.transport';
import { OutboxRelay } from './outbox-relay';

describe(InProcessTransport.name, () => {
  let testDatabase: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('inproc');
    database = await openTestSchema(testDatabase.url);
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  function setUp(policy = { maxDeliveries: 3, backoffMs: [10] }) {
    const sut = new InProcessTransport(silentLogger, policy);
    const outbox = new EventOutbox(database);
    const consumers = new EventConsumers(`svc${randomUUID().slice(0, 8)}`, database, sut);
    const relay = new OutboxRelay(database, sut, silentLogger);
    return { sut, outbox, consumers, relay };
  }

  it('should deliver a committed event to its consumer before publish returns when the relay drains', async () => {
    const { outbox, consumers, relay } = setUp();
    const rowsSeenByHandler: number[] = [];
    consumers.register('effects', ['HITL'], async (event, tx) => {
      // Read from another connection: the relay has not committed the delete of the row yet.
      rowsSeenByHandler.push(await outboxSize(database));
      await recordEffect(tx, event, 'effects', 'a');
    });
    await consumers.start();
    const tenantId = randomUUID();
    const event = await placeOrder(database, outbox, tenantId, 'first');

    await relay.drainOnce();

    const effects = await storedEffects(database);
    expect(effects.filter((e) => e.eventId === event.id)).toHaveLength(1);
    expect(rowsSeenByHandler).toEqual([1]);
    expect(await outboxSize(database)).toBe(0);
  });

  it('should retry a failing handler and then park the event when its deliveries run out', async () => {
    const { sut, consumers } = setUp();
    let attempts = 0;
    consumers.register('flaky', ['HITL'], async () => {
      attempts += 1;
      throw new Error('downstream unavailable');
    });
    await consumers.start();
    const event = buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {});

    await sut.publish(event);

    expect(attempts).toBe(3);
    expect(sut.parked).toEqual([
      expect.objectContaining({ subject: 'HITL', reason: 'downstream unavailable', deliveries: 3 }),
    ]);
    expect(JSON.parse(sut.parked[0].body)).toMatchObject({ id: event.id });
  });

  it('should succeed on a later delivery when the handler fails only at first', async () => {
    const { sut, consumers } = setUp();
    let attempts = 0;
    consumers.register('recovering', ['HITL'], async (event, tx) => {
      attempts += 1;
      if (attempts === 1) {
        throw new Error('first try fails');
      }
      await recordEffect(tx, event, 'recovering', 'a');
    });
    await consumers.start();
    const event = buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {});

    await sut.publish(event);

    expect(attempts).toBe(2);
    expect(sut.parked).toEqual([]);
    expect((await storedEffects(database)).filter((e) => e.eventId === event.id)).toHaveLength(1);
  });

  it('should park an invalid payload at once when validation rejects it', async () => {
    const { sut, consumers } = setUp();
    let attempts = 0;
    consumers.register('strict', ['HITL'], async () => {
      attempts += 1;
    });
    await consumers.start();
    const valid = buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {});

    await sut.publish({ ...valid, data: { policyIds: ['not-a-uuid'] } });

    expect(attempts).toBe(0);
    expect(sut.parked).toEqual([
      expect.objectContaining({ deliveries: 1, reason: expect.stringContaining('data.policyIds') }),
    ]);
  });

  it('should deliver only to consumers of the event type when several are subscribed', async () => {
    const { sut, consumers } = setUp();
    const seen: string[] = [];
    consumers.register('hitl', ['HITL'], async (event) => {
      seen.push(`hitl:${event.type}`);
    });
    consumers.register('lifecycle', ['TENANT_LIFECYCLE'], async (event) => {
      seen.push(`lifecycle:${event.type}`);
    });
    await consumers.start();

    await sut.publish(
      buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {}),
    );

    expect(seen).toEqual(['hitl:HITL']);
  });

  it('should keep the outbox row when the relay drains after consumers stopped', async () => {
    const { sut, outbox, consumers, relay } = setUp();
    consumers.register('effects', ['HITL'], (event, tx) => recordEffect(tx, event, 'effects', 'a'));
    await consumers.start();
    await sut.stopConsumers();
    const before = await outboxSize(database);
    const event = await placeOrder(database, outbox, randomUUID(), 'during shutdown');

    await expect(relay.drainOnce()).rejects.toThrow('stopped');

    expect(await outboxSize(database)).toBe(before + 1);
    expect((await storedEffects(database)).filter((e) => e.eventId === event.id)).toEqual([]);
    await database.asSystem((tx) =>
      tx.query(`DELETE FROM ${TEST_SCHEMA}.outbox WHERE id = $1`, [event.id]),
    );
  });

  it('should let a listener hear each published event of its types before the consumers run', async () => {
    const { sut } = setUp();
    const heard: string[] = [];
    const stop = await sut.listen(['HITL'], {
      onEvent: (e) => heard.push(e.id),
      onGap: () => undefined,
    });
    const event = buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {});

    await sut.publish(event);
    stop();
    await sut.publish(
      buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {}),
    );

    expect(heard).toEqual([event.id]);
  });

  it('should hand a batch subscriber what one drain publishes in one delivery', async () => {
    const { sut, outbox, relay } = setUp();
    const batches: string[][] = [];
    await sut.subscribeBatches(
      { name: `batch${randomUUID().slice(0, 8)}`, types: ['HITL'] },
      {},
      async (batch) => {
        batches.push(batch.map((e) => e.id));
      },
    );
    const context = { tenantId: randomUUID(), correlationId: randomUUID() };
    const events = [1, 2, 3].map(() => buildEvent('HITL', context, {}));
    await outbox.addCommitted(events);

    await relay.drainOnce();

    expect(batches).toEqual([events.map((e) => e.id)]);
    expect(await outboxSize(database)).toBe(0);
  });

  it('should park only the poison event of a batch and deliver the others', async () => {
    const { sut } = setUp();
    const delivered: string[] = [];
    const context = { tenantId: randomUUID(), correlationId: randomUUID() };
    const [good, poison, alsoGood] = [1, 2, 3].map(() => buildEvent('HITL', context, {}));
    await sut.subscribeBatches({ name: 'strict-batch', types: ['HITL'] }, {}, async (batch) => {
      if (batch.some((e) => e.id === poison.id)) {
        throw new PoisonMessageError('cannot be stored');
      }
      delivered.push(...batch.map((e) => e.id));
    });

    await sut.publishInline([good, poison, alsoGood]);

    expect(delivered).toEqual([good.id, alsoGood.id]);
    expect(sut.parked).toEqual([
      expect.objectContaining({
        consumer: 'strict-batch',
        deliveries: 1,
        reason: 'cannot be stored',
      }),
    ]);
  });
});

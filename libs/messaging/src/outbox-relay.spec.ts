import { randomUUID } from 'node:crypto';

import { EventEnvelope } from '@agp/contracts';
import { Database } from '@agp/database';
import { createTestDatabase, eventually, TestDatabase } from '@agp/testing';

import {
  gate,
  openTestSchema,
  outboxSize,
  placeOrder,
  silentLogger,
} from '../test/support/messaging-test-schema';
import { EventOutbox, buildEvent } from './event-outbox';
import { EventTransport } from './event-transport';
import { InProcessTransport } from './in-process.transport';
import { OutboxRelay, compareSeq } from './outbox-relay';

describe(OutboxRelay.name, () => {
  let testDatabase: TestDatabase;
  let replicaA: Database;
  let replicaB: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('relay');
    replicaA = await openTestSchema(testDatabase.url);
    replicaB = await openTestSchema(testDatabase.url);
  });

  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
    await testDatabase?.drop();
  });

  it('should publish each event once and empty the outbox when two replicas relay the same outbox', async () => {
    const outbox = new EventOutbox(replicaA);
    const tenantId = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      ids.push((await placeOrder(replicaA, outbox, tenantId, `order ${i}`)).id);
    }
    const published: Array<{ relay: string; id: string }> = [];
    // Each relay, once publishing, waits until the other publishes too: it can only happen if the
    // second reads rows the first holds no claim on, and a relay that took everything at once (or
    // waited behind the other's batch) leaves the test waiting instead of passing by luck.
    const aPublishing = gate();
    const bPublishing = gate();
    const transportA = new InProcessTransport(silentLogger);
    const transportB = new InProcessTransport(silentLogger);
    await transportA.subscribe(
      { name: 'count', types: ['HITL'] },
      async (envelope: EventEnvelope) => {
        aPublishing.open();
        await bPublishing.promise;
        published.push({ relay: 'a', id: envelope.id });
      },
    );
    await transportB.subscribe(
      { name: 'count', types: ['HITL'] },
      async (envelope: EventEnvelope) => {
        bPublishing.open();
        await aPublishing.promise;
        published.push({ relay: 'b', id: envelope.id });
      },
    );
    const relayA = new OutboxRelay(replicaA, transportA, silentLogger, {
      batchSize: 5,
      idleMs: 20,
    });
    const relayB = new OutboxRelay(replicaB, transportB, silentLogger, {
      batchSize: 5,
      idleMs: 20,
    });

    relayA.start();
    relayB.start();
    try {
      await eventually(async () => expect(await outboxSize(replicaA)).toBe(0));
    } finally {
      await Promise.all([relayA.stop(), relayB.stop()]);
    }

    expect(published.map((p) => p.id).sort()).toEqual([...ids].sort());
    expect(new Set(published.map((p) => p.relay))).toEqual(new Set(['a', 'b']));
  });

  it('should keep the rows for the next try when publishing fails', async () => {
    const outbox = new EventOutbox(replicaA);
    const event = await placeOrder(replicaA, outbox, randomUUID(), 'kept');
    const unreachable = new InProcessTransport(silentLogger);
    unreachable.publish = async () => {
      throw new Error('bus unreachable');
    };
    unreachable.publishInline = async () => {
      throw new Error('bus unreachable');
    };
    const delivered: string[] = [];
    const reachable = new InProcessTransport(silentLogger);
    await reachable.subscribe({ name: 'count', types: ['HITL'] }, async (envelope) => {
      delivered.push(envelope.id);
    });

    await expect(new OutboxRelay(replicaA, unreachable, silentLogger).drainOnce()).rejects.toThrow(
      'bus unreachable',
    );
    expect(await outboxSize(replicaA)).toBe(1);
    await new OutboxRelay(replicaA, reachable, silentLogger).drainOnce();

    expect(delivered).toEqual([event.id]);
    expect(await outboxSize(replicaA)).toBe(0);
  });

  it('should publish soon after the commit when the outbox wakes the relay', async () => {
    const transport = new InProcessTransport(silentLogger);
    const delivered: string[] = [];
    await transport.subscribe({ name: 'count', types: ['HITL'] }, async (envelope) => {
      delivered.push(envelope.id);
    });
    // A long idle poll: only the kick can make the event go out within the wait below.
    const sut = new OutboxRelay(replicaA, transport, silentLogger, { idleMs: 60_000 });
    const outbox = new EventOutbox(replicaA);
    outbox.notifyOnAdd(() => sut.kick());
    sut.start();
    try {
      await eventually(async () => expect(await outboxSize(replicaA)).toBe(0));
      const tenantId = randomUUID();
      const event = await replicaA.inTenant(tenantId, async (tx) => {
        const added = await outbox.add(tx, 'HITL', { tenantId, correlationId: randomUUID() }, {});
        // The commit comes well after the add: a relay woken at the add would find nothing.
        await new Promise((resolve) => setTimeout(resolve, 100));
        return added;
      });

      await eventually(() => expect(delivered).toContain(event.id));
    } finally {
      await sut.stop();
    }
  });
  it('should drain within its kick delay while commits keep waking the relay', async () => {
    // Fake clocks for the relay's timers only; the drains still read the real outbox.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const sut = new OutboxRelay(replicaA, new InProcessTransport(silentLogger), silentLogger, {
      idleMs: 60_000,
    });
    const drains = jest.spyOn(sut, 'drainOnce');
    try {
      sut.start();
      jest.advanceTimersByTime(0);
      expect(drains).toHaveBeenCalledTimes(1);
      await drains.mock.results[0].value;
      await new Promise((resolve) => setImmediate(resolve));

      // Steady traffic: a commit every 2 ms for 50 ms, each waking the relay (40 ms delay, F43).
      for (let elapsed = 0; elapsed < 50; elapsed += 2) {
        sut.kick();
        jest.advanceTimersByTime(2);
      }

      expect(drains).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
      await sut.stop();
    }
  });

  it('should drain 40 ms after a kick and poll every 2 s on the in-process bus (F43)', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const sut = new OutboxRelay(replicaA, new InProcessTransport(silentLogger), silentLogger);
    const drains = jest.spyOn(sut, 'drainOnce');
    const settled = (): Promise<void> => lastDrainSettled(drains);
    try {
      sut.start();
      jest.advanceTimersByTime(0);
      await settled();

      sut.kick();
      jest.advanceTimersByTime(30);
      expect(drains).toHaveBeenCalledTimes(1);
      jest.advanceTimersByTime(10);
      expect(drains).toHaveBeenCalledTimes(2);
      await settled();

      jest.advanceTimersByTime(1_000);
      expect(drains).toHaveBeenCalledTimes(2);
      jest.advanceTimersByTime(1_000);
      expect(drains).toHaveBeenCalledTimes(3);
    } finally {
      jest.useRealTimers();
      await sut.stop();
    }
  });

  it('should drain 5 ms after a kick, poll every 2 s and retry a failure within 500 ms on a broker (F52)', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const broker = { publish: async () => undefined } as unknown as EventTransport;
    const sut = new OutboxRelay(replicaA, broker, silentLogger);
    let isFailing = false;
    const drains = jest.spyOn(sut, 'drainOnce').mockImplementation(async () => {
      if (isFailing) {
        throw new Error('broker down');
      }
      return 0;
    });
    const settled = (): Promise<void> => lastDrainSettled(drains);
    try {
      sut.start();
      jest.advanceTimersByTime(0);
      await settled();

      sut.kick();
      jest.advanceTimersByTime(5);
      expect(drains).toHaveBeenCalledTimes(2);
      await settled();

      jest.advanceTimersByTime(1_999);
      expect(drains).toHaveBeenCalledTimes(2);
      isFailing = true;
      jest.advanceTimersByTime(1);
      expect(drains).toHaveBeenCalledTimes(3);
      await settled();

      jest.advanceTimersByTime(500);
      expect(drains).toHaveBeenCalledTimes(4);
    } finally {
      jest.useRealTimers();
      await sut.stop();
    }
  });

  it('should publish a cross-process batch in outbox order, delete it in one go, and keep it when a publish fails', async () => {
    const outbox = new EventOutbox(replicaA);
    const tenantId = randomUUID();
    const events = Array.from({ length: 12 }, () =>
      buildEvent('HITL', { tenantId, correlationId: randomUUID() }, {}),
    );
    await outbox.addCommitted(events);
    let isFailing = true;
    const published: string[] = [];
    // A bus that acknowledges out of order, like JetStream under load; the relay must still
    // hand the events over in outbox order.
    const bus = {
      publish: async (envelope: EventEnvelope) => {
        if (isFailing && envelope.id === events[7].id) {
          throw new Error('no acknowledgement');
        }
        published.push(envelope.id);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
      },
    } as unknown as EventTransport;
    const sut = new OutboxRelay(replicaA, bus, silentLogger, { batchSize: 5 });

    await sut.drainOnce();
    await expect(sut.drainOnce()).rejects.toThrow('no acknowledgement');
    expect(await outboxSize(replicaA)).toBe(7);
    isFailing = false;
    published.length = 0;
    while ((await sut.drainOnce()) > 0) {
      // until the outbox is empty
    }

    expect(published).toEqual(events.slice(5).map((e) => e.id));
    expect(await outboxSize(replicaA)).toBe(0);
  });

  it('should delete what went out and keep the rest when an in-process publish fails mid-batch', async () => {
    const outbox = new EventOutbox(replicaA);
    const tenantId = randomUUID();
    const events = Array.from({ length: 4 }, () =>
      buildEvent('HITL', { tenantId, correlationId: randomUUID() }, {}),
    );
    await outbox.addCommitted(events);
    const delivered: string[] = [];
    const transport = new InProcessTransport(silentLogger);
    // A bus that publishes one event at a time (publishInline delivers a drain all or nothing).
    Object.assign(transport, { publishInline: undefined });
    await transport.subscribe({ name: 'count', types: ['HITL'] }, async (envelope) => {
      delivered.push(envelope.id);
    });
    const publish = transport.publish.bind(transport);
    let isFailing = true;
    transport.publish = async (envelope) => {
      if (isFailing && envelope.id === events[2].id) {
        isFailing = false;
        throw new Error('consumer down');
      }
      return publish(envelope);
    };
    const sut = new OutboxRelay(replicaA, transport, silentLogger);

    await expect(sut.drainOnce()).rejects.toThrow('consumer down');
    expect(await outboxSize(replicaA)).toBe(2);
    await sut.drainOnce();

    expect(delivered).toEqual(events.map((e) => e.id));
    expect(await outboxSize(replicaA)).toBe(0);
  });

  it('should order bigserial values as numbers', () => {
    expect(['10', '9', '100', '11'].sort(compareSeq)).toEqual(['9', '10', '11', '100']);
  });
});

/** The relay's last drain is over (failed or not) and what it scheduled is in place. */
async function lastDrainSettled(drains: jest.SpyInstance<Promise<number>>): Promise<void> {
  const last = drains.mock.results[drains.mock.results.length - 1].value as Promise<number>;
  await last.catch(() => undefined);
  await new Promise((resolve) => setImmediate(resolve));
}

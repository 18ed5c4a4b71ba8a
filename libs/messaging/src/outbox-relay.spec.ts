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
import { EventOutbox } from './event-outbox';
import { InProcessTransport } from './in-process.transport';
import { OutboxRelay } from './outbox-relay';

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
    const bPublished = gate();
    const transportA = new InProcessTransport(silentLogger);
    const transportB = new InProcessTransport(silentLogger);
    await transportA.subscribe(
      { name: 'count', types: ['HITL'] },
      async (envelope: EventEnvelope) => {
        // A holds its claimed batch until B has published: B can only have taken rows A skipped.
        await bPublished.promise;
        published.push({ relay: 'a', id: envelope.id });
      },
    );
    await transportB.subscribe(
      { name: 'count', types: ['HITL'] },
      async (envelope: EventEnvelope) => {
        published.push({ relay: 'b', id: envelope.id });
        bPublished.open();
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
});

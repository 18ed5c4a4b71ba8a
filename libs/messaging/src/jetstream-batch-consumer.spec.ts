import { randomUUID } from 'node:crypto';

import { EventEnvelope } from '@agp/contracts';
import { eventually } from '@agp/testing';

import {
  consumerFacts,
  jetStreamBed,
  deleteConsumer,
  testJetStreamOptions,
} from '../test/support/jetstream-test-kit';
import {
  countsById,
  gate,
  recordEffect,
  storedEffects,
} from '../test/support/messaging-test-schema';
import { buildEvent } from './event-outbox';
import { BatchSubscriptionOptions, ConsumerSpec, DeliverBatch } from './event-transport';
import { JetStreamBatchConsumer } from './jetstream-batch-consumer';
import { JetStreamOptions, JetStreamTransport } from './jetstream.transport';

describe(JetStreamBatchConsumer.name, () => {
  const bed = jetStreamBed('batch', 6);

  async function publisher(): Promise<{ prefix: string; transport: JetStreamTransport }> {
    const prefix = bed.prefix();
    return { prefix, transport: await bed.transport(testJetStreamOptions(prefix)) };
  }

  /** A replica of the batch consumer: its own transport, whose batched subscription is under test. */
  async function consumer(
    prefix: string,
    overrides: Partial<JetStreamOptions> & BatchSubscriptionOptions = {},
  ): Promise<{
    subscribe: (spec: ConsumerSpec, deliver: DeliverBatch) => Promise<void>;
    stop: () => Promise<void>;
    retireConsumer: (name: string) => Promise<boolean>;
  }> {
    const { maxBatch, concurrentBatches, lingerMs, ...transportOverrides } = overrides;
    const transport = await bed.transport(testJetStreamOptions(prefix, transportOverrides));
    return {
      subscribe: (spec, deliver) =>
        transport.subscribeBatches(spec, { maxBatch, concurrentBatches, lingerMs }, deliver),
      stop: () => transport.stopConsumers(),
      retireConsumer: (name) => transport.retireConsumer(name),
    };
  }

  function events(count: number, summary = 'fine'): EventEnvelope[] {
    return Array.from({ length: count }, () =>
      buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, { summary }),
    );
  }

  async function storeAll(batch: EventEnvelope[], replica: string): Promise<void> {
    await bed.database.asSystem(async (tx) => {
      for (const event of batch) {
        await recordEffect(tx, event, 'batch', replica);
      }
    });
  }

  async function effectsOf(list: EventEnvelope[]) {
    const ids = list.map((e) => e.id);
    return (await storedEffects(bed.database)).filter((e) => ids.includes(e.eventId));
  }

  it('should hand every event of its types over in batches and ack them after the handler resolved', async () => {
    const { prefix, transport } = await publisher();
    const wanted = events(30);
    for (const event of wanted) {
      await transport.publish(event);
    }
    await transport.publish(
      buildEvent(
        'PROMPT_INJECTION_DETECTION',
        { tenantId: randomUUID(), correlationId: randomUUID() },
        {},
      ),
    );
    const sizes: number[] = [];
    const sut = await consumer(prefix, { maxBatch: 8 });

    await sut.subscribe({ name: 'ingest', types: ['HITL'] }, async (batch) => {
      sizes.push(batch.length);
      await storeAll(batch, 'a');
    });

    await eventually(async () => expect(await effectsOf(wanted)).toHaveLength(30));
    await eventually(async () =>
      expect(await consumerFacts(prefix, 'ingest')).toMatchObject({ ackPending: 0, ackFloor: 31 }),
    );
    expect(Math.max(...sizes)).toBeLessThanOrEqual(8);
    expect([...countsById(await effectsOf(wanted)).values()].every((count) => count === 1)).toBe(
      true,
    );
  });

  it('should retry a failed batch one by one, park the poison event and store the others', async () => {
    const { prefix, transport } = await publisher();
    const good = events(5);
    const [poison] = events(1, 'poison');
    for (const event of [...good.slice(0, 2), poison, ...good.slice(2)]) {
      await transport.publish(event);
    }
    const sut = await consumer(prefix);

    await sut.subscribe({ name: 'ingest', types: ['HITL'] }, async (batch) => {
      if (
        batch.some(
          (event) => event.data && (event.data as { summary?: string }).summary === 'poison',
        )
      ) {
        throw new Error('cannot store this batch');
      }
      await storeAll(batch, 'a');
    });

    await eventually(async () => expect(await effectsOf(good)).toHaveLength(5));
    await eventually(async () => expect(await transport.deadLetters()).toHaveLength(1));
    const [parked] = await transport.deadLetters();
    expect(parked).toMatchObject({
      consumer: 'ingest',
      reason: 'cannot store this batch',
      deliveries: 3,
    });
    expect(JSON.parse(parked.body)).toMatchObject({ id: poison.id });
    await eventually(async () =>
      expect(await consumerFacts(prefix, 'ingest')).toMatchObject({ ackPending: 0 }),
    );
  });

  it('should find one poison event in a large batch in a few halves rather than event by event', async () => {
    const { prefix, transport } = await publisher();
    const good = events(31);
    const [poison] = events(1, 'poison');
    const all = [...good.slice(0, 20), poison, ...good.slice(20)] as EventEnvelope[];
    for (const event of all) {
      await transport.publish(event);
    }
    const sut = await consumer(prefix, { maxBatch: 32, lingerMs: 500 });
    const sizes: number[] = [];
    await sut.subscribe({ name: 'ingest', types: ['HITL'] }, async (batch) => {
      sizes.push(batch.length);
      if (batch.some((event) => (event.data as { summary?: string }).summary === 'poison')) {
        throw new Error('cannot store this batch');
      }
      await storeAll(batch, 'a');
    });

    await eventually(async () => expect(await effectsOf(good)).toHaveLength(31));
    await eventually(async () => expect(await transport.deadLetters()).toHaveLength(1));
    expect(sizes[0]).toBe(32);
    // The whole batch, then two halves at each of five levels; one by one it would be 32 more.
    expect(sizes.filter((size) => size > 1).length).toBeLessThanOrEqual(10);
    expect(sizes.length).toBeLessThan(20);
  });

  it('should finish the batch in hand and give the gathered messages back at once when stopped', async () => {
    const { prefix, transport } = await publisher();
    const all = events(6);
    for (const event of all) {
      await transport.publish(event);
    }
    // A long ack wait: only a nak can bring the gathered messages back within this test.
    const first = await consumer(prefix, { ackWaitMs: 60_000, maxBatch: 2 });
    const held = gate();
    const started = gate();
    await first.subscribe({ name: 'ingest', types: ['HITL'] }, async (batch) => {
      started.open();
      await held.promise;
      await storeAll(batch, 'a');
    });
    await started.promise;
    await eventually(async () =>
      expect(await consumerFacts(prefix, 'ingest')).toMatchObject({ ackPending: 6 }),
    );

    const stopping = first.stop();
    held.open();
    await stopping;

    expect(await effectsOf(all)).toHaveLength(1);
    const second = await consumer(prefix, { ackWaitMs: 60_000 });
    await second.subscribe({ name: 'ingest', types: ['HITL'] }, (batch) => storeAll(batch, 'b'));
    await eventually(async () => expect(await effectsOf(all)).toHaveLength(6));
    expect((await effectsOf(all)).filter((e) => e.replica === 'b')).toHaveLength(5);
  });

  it('should delete a retired durable consumer once, and find nothing to delete the second time', async () => {
    const { prefix } = await publisher();
    const sut = await consumer(prefix);
    await sut.subscribe({ name: 'retired', types: ['HITL'] }, async () => undefined);
    await sut.stop();

    expect(await sut.retireConsumer('retired')).toBe(true);
    expect(await sut.retireConsumer('retired')).toBe(false);
  });

  it('should create its durable consumer again and go on delivering when the consumer is deleted under it', async () => {
    const { prefix, transport } = await publisher();
    const sut = await consumer(prefix, { pullExpiresMs: 1_000 });
    const seen = new Set<string>();
    await sut.subscribe({ name: 'batch-restored', types: ['HITL'] }, async (batch) => {
      batch.forEach((event) => seen.add(event.id));
    });
    const [before] = events(1);
    await transport.publish(before);
    await eventually(async () => expect(seen.has(before?.id ?? '')).toBe(true));

    await deleteConsumer(prefix, 'batch-restored');
    const [after] = events(1);
    await transport.publish(after);

    await eventually(async () => expect(seen.has(after?.id ?? '')).toBe(true), 200, 100);
  });
});

import { randomUUID } from 'node:crypto';

import { EventEnvelope } from '@agp/contracts';
import { eventually } from '@agp/testing';

import {
  consumerFacts,
  jetStreamBed,
  eventsStreamFacts,
  publishRaw,
  replicaTransport,
  testJetStreamOptions,
  deleteConsumer,
} from '../test/support/jetstream-test-kit';
import {
  countsById,
  gate,
  openTestSchema,
  outboxSize,
  placeOrder,
  recordEffect,
  silentLogger,
  storedEffects,
} from '../test/support/messaging-test-schema';
import { EventConsumers } from './event-consumers';
import { EventOutbox, buildEvent } from './event-outbox';
import { JetStreamOptions, JetStreamTransport } from './jetstream.transport';
import { OutboxRelay } from './outbox-relay';
import { eventSubject } from './subjects';

describe(JetStreamTransport.name, () => {
  const bed = jetStreamBed('jst', 8);
  const newPrefix = () => bed.prefix();
  const transportFor = (options: JetStreamOptions) => bed.transport(options);

  async function replica(options: JetStreamOptions) {
    const made = await replicaTransport(options);
    bed.onCleanup(() => made.transport.close());
    return made;
  }

  function tenantEvent(summary = 'x'): EventEnvelope {
    return buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, { summary });
  }

  async function effectsOf(ids: readonly string[]) {
    return (await storedEffects(bed.database)).filter((e) => ids.includes(e.eventId));
  }

  it('should deliver an event committed with a state change to a consumer when the relay publishes it', async () => {
    const options = testJetStreamOptions(newPrefix());
    const transport = await transportFor(options);
    const outbox = new EventOutbox(bed.database);
    const relay = new OutboxRelay(bed.database, transport, silentLogger, { idleMs: 20 });
    const consumers = new EventConsumers('svc', bed.database, transport);
    consumers.register('effects', ['HITL'], (event, tx) => recordEffect(tx, event, 'effects', 'a'));
    await consumers.start();
    relay.start();
    bed.onCleanup(() => relay.stop());

    const event = await placeOrder(bed.database, outbox, randomUUID(), 'delivered');

    await eventually(async () => {
      expect(await effectsOf([event.id])).toHaveLength(1);
      expect(await outboxSize(bed.database)).toBe(0);
    });
    expect(await eventsStreamFacts(options.prefix)).toEqual({ messages: 1 });
  });

  it('should let every replica hear a published event of the types it listens to, and stop when told', async () => {
    const options = testJetStreamOptions(newPrefix());
    const publisher = await transportFor(options);
    const [first, second] = [await transportFor(options), await transportFor(options)];
    const heard: Record<string, string[]> = { first: [], second: [] };
    const stopFirst = await first.listen(['HITL'], {
      onEvent: (e) => heard.first.push(e.id),
      onGap: () => undefined,
    });
    await second.listen(['HITL', 'HITL_GUARD'], {
      onEvent: (e) => heard.second.push(e.id),
      onGap: () => undefined,
    });
    const event = tenantEvent();
    const other = buildEvent(
      'AGENT_LIFECYCLE',
      { tenantId: randomUUID(), correlationId: randomUUID() },
      {
        agentId: randomUUID(),
        name: 'a',
        change: 'CREATED',
        status: 'ACTIVE',
        permissions: [],
      },
    );

    await publisher.publish(event);
    await publisher.publish(other);
    await eventually(() => expect(heard).toEqual({ first: [event.id], second: [event.id] }));
    stopFirst();
    const later = tenantEvent();
    await publisher.publish(later);

    await eventually(() => expect(heard.second).toEqual([event.id, later.id]));
    expect(heard.first).toEqual([event.id]);
  });

  it('should store one stream message when the same event id is published twice', async () => {
    const options = testJetStreamOptions(newPrefix());
    const sut = await transportFor(options);
    const event = tenantEvent();

    await sut.publish(event);
    await sut.publish(event);
    await sut.publish(tenantEvent());

    expect(await eventsStreamFacts(options.prefix)).toEqual({ messages: 2 });
  });

  it('should redeliver to another replica and keep one effect when a consumer dies after its commit, before its ack', async () => {
    const options = testJetStreamOptions(newPrefix());
    const a = await replica(options);
    const held = gate();
    const committing = gate();
    const consumersA = new EventConsumers('svc', bed.database, a.transport);
    consumersA.register('effects', ['HITL'], async (event, tx) => {
      await recordEffect(tx, event, 'effects', 'a');
      committing.open();
      await held.promise;
    });
    await consumersA.start();
    const event = tenantEvent();
    await a.transport.publish(event);
    await committing.promise;

    await a.crash();
    held.open();
    await eventually(async () => expect(await effectsOf([event.id])).toHaveLength(1));
    const consumersB = new EventConsumers('svc', bed.database, (await replica(options)).transport);
    consumersB.register('effects', ['HITL'], (redelivered, tx) =>
      recordEffect(tx, redelivered, 'effects', 'b'),
    );
    await consumersB.start();

    await eventually(async () =>
      expect(await consumerFacts(options.prefix, 'svc-effects')).toEqual({
        delivered: 2,
        ackPending: 0,
        ackFloor: 1,
      }),
    );
    expect((await effectsOf([event.id])).map((e) => e.replica)).toEqual(['a']);
  });

  it('should redeliver to another replica which applies the event when a consumer dies before its commit', async () => {
    const options = testJetStreamOptions(newPrefix());
    const a = await replica(options);
    const held = gate();
    const started = gate();
    const consumersA = new EventConsumers('svc', bed.database, a.transport);
    consumersA.register('effects', ['HITL'], async (event, tx) => {
      await recordEffect(tx, event, 'effects', 'a');
      started.open();
      await held.promise;
      throw new Error('the process died here');
    });
    await consumersA.start();
    const event = tenantEvent();
    await a.transport.publish(event);
    await started.promise;

    await a.crash();
    held.open();
    const consumersB = new EventConsumers('svc', bed.database, (await replica(options)).transport);
    consumersB.register('effects', ['HITL'], (redelivered, tx) =>
      recordEffect(tx, redelivered, 'effects', 'b'),
    );
    await consumersB.start();

    await eventually(async () =>
      expect((await effectsOf([event.id])).map((e) => e.replica)).toEqual(['b']),
    );
    await eventually(async () =>
      expect(await consumerFacts(options.prefix, 'svc-effects')).toMatchObject({
        ackPending: 0,
        ackFloor: 1,
      }),
    );
  });

  it('should park a poison event after its bounded deliveries while the others go through', async () => {
    const options = testJetStreamOptions(newPrefix());
    const sut = await transportFor(options);
    const attempts = new Map<string, number>();
    const consumers = new EventConsumers('svc', bed.database, sut);
    consumers.register('effects', ['HITL'], async (event, tx) => {
      attempts.set(event.id, (attempts.get(event.id) ?? 0) + 1);
      if (event.data.summary === 'poison') {
        throw new Error('cannot handle this one');
      }
      await recordEffect(tx, event, 'effects', 'a');
    });
    await consumers.start();
    const before = tenantEvent('fine');
    const poison = tenantEvent('poison');
    const after = tenantEvent('fine');

    for (const event of [before, poison, after]) {
      await sut.publish(event);
    }

    await eventually(async () => expect(await sut.deadLetters()).toHaveLength(1));
    const [parked] = await sut.deadLetters();
    expect(parked).toMatchObject({
      consumer: 'svc-effects',
      subject: eventSubject(options.prefix, 'HITL'),
      reason: 'cannot handle this one',
      deliveries: 3,
    });
    expect(JSON.parse(parked.body)).toMatchObject({ id: poison.id });
    await eventually(async () => expect((await effectsOf([before.id, after.id])).length).toBe(2));
    // Settled for good: one delivery of each good event, three of the poison one, none pending.
    await eventually(async () =>
      expect(await consumerFacts(options.prefix, 'svc-effects')).toMatchObject({
        ackPending: 0,
        delivered: 5,
      }),
    );
    expect(attempts.get(poison.id)).toBe(3);
  });

  it('should park an invalid payload and a body that is not JSON at once when they arrive', async () => {
    const options = testJetStreamOptions(newPrefix());
    const sut = await transportFor(options);
    let calls = 0;
    const consumers = new EventConsumers('svc', bed.database, sut);
    consumers.register('effects', ['HITL'], async () => {
      calls += 1;
    });
    await consumers.start();
    const invalid = { ...tenantEvent(), data: { policyIds: ['not-a-uuid'] } };

    await sut.publish(invalid);
    await publishRaw(eventSubject(options.prefix, 'HITL'), '{not json');

    await eventually(async () => expect(await sut.deadLetters()).toHaveLength(2));
    const parked = await sut.deadLetters();
    expect(parked.map((p) => ({ reason: p.reason, deliveries: p.deliveries }))).toEqual([
      { reason: expect.stringContaining('data.policyIds'), deliveries: 1 },
      { reason: 'body is not JSON', deliveries: 1 },
    ]);
    expect(calls).toBe(0);
    await eventually(async () =>
      expect(await consumerFacts(options.prefix, 'svc-effects')).toMatchObject({
        ackPending: 0,
        delivered: 2,
      }),
    );
  });

  it('should give a consumer only the types it registered when another type is on the stream', async () => {
    const options = testJetStreamOptions(newPrefix());
    const sut = await transportFor(options);
    const seen: string[] = [];
    const consumers = new EventConsumers('svc', bed.database, sut);
    consumers.register('two-types', ['HITL', 'PROMPT_INJECTION_DETECTION'], async (event) => {
      seen.push(event.type);
    });
    await consumers.start();

    await sut.publish(
      buildEvent('TENANT_LIFECYCLE', { tenantId: randomUUID(), correlationId: randomUUID() }, {
        tenantId: randomUUID(),
        slug: 'acme',
        name: 'Acme',
        change: 'CREATED',
      } as never),
    );
    await sut.publish(tenantEvent());
    await sut.publish(
      buildEvent(
        'PROMPT_INJECTION_DETECTION',
        { tenantId: randomUUID(), correlationId: randomUUID() },
        {},
      ),
    );

    await eventually(() => expect(seen.sort()).toEqual(['HITL', 'PROMPT_INJECTION_DETECTION']));
    await eventually(async () =>
      expect(await consumerFacts(options.prefix, 'svc-two-types')).toMatchObject({
        ackPending: 0,
        ackFloor: 3,
      }),
    );
    expect(seen).toHaveLength(2);
  });

  it('should process each event once across two replicas on the same durable consumer, both doing work', async () => {
    const options = testJetStreamOptions(newPrefix(), { batchSize: 1 });
    const replicaDatabaseB = await openTestSchema(bed.databaseUrl, 4);
    bed.onCleanup(() => replicaDatabaseB.close());
    const a = await replica(options);
    const b = await replica(options);
    const consumersA = new EventConsumers('svc', bed.database, a.transport);
    const consumersB = new EventConsumers('svc', replicaDatabaseB, b.transport);
    let heldOnce = false;
    consumersA.register('effects', ['HITL'], async (event, tx) => {
      if (!heldOnce) {
        heldOnce = true;
        // A holds its first event until B has stored an effect: B must have received work.
        await eventually(async () =>
          expect((await storedEffects(bed.database)).some((e) => e.replica === 'b')).toBe(true),
        );
      }
      await recordEffect(tx, event, 'effects', 'a');
    });
    consumersB.register('effects', ['HITL'], (event, tx) =>
      recordEffect(tx, event, 'effects', 'b'),
    );
    await consumersA.start();
    await consumersB.start();
    const outbox = new EventOutbox(bed.database);
    const tenantId = randomUUID();
    const ids: string[] = [];

    for (let i = 0; i < 30; i += 1) {
      ids.push((await placeOrder(bed.database, outbox, tenantId, `order ${i}`)).id);
    }
    await new OutboxRelay(bed.database, a.transport, silentLogger).drainOnce();

    await eventually(async () => expect(await effectsOf(ids)).toHaveLength(30));
    const effects = await effectsOf(ids);
    expect([...countsById(effects).values()].every((count) => count === 1)).toBe(true);
    expect(new Set(effects.map((e) => e.replica))).toEqual(new Set(['a', 'b']));
  });

  it('should let the in-flight handler finish and hand the held messages back when consumers stop', async () => {
    // A long ack wait: only a nak can bring the held messages back within this test.
    const options = testJetStreamOptions(newPrefix(), { ackWaitMs: 60_000 });
    const a = await replica(options);
    const events = [tenantEvent(), tenantEvent(), tenantEvent(), tenantEvent(), tenantEvent()];
    for (const event of events) {
      await a.transport.publish(event);
    }
    const held = gate();
    const started = gate();
    const consumersA = new EventConsumers('svc', bed.database, a.transport);
    consumersA.register('effects', ['HITL'], async (event, tx) => {
      started.open();
      await held.promise;
      await recordEffect(tx, event, 'effects', 'a');
    });
    await consumersA.start();
    await started.promise;
    await eventually(async () =>
      expect(await consumerFacts(options.prefix, 'svc-effects')).toMatchObject({ ackPending: 5 }),
    );

    const stopping = a.transport.stopConsumers();
    held.open();
    await stopping;

    expect((await effectsOf(events.map((e) => e.id))).map((e) => e.replica)).toEqual(['a']);
    const consumersB = new EventConsumers('svc', bed.database, (await replica(options)).transport);
    consumersB.register('effects', ['HITL'], (event, tx) =>
      recordEffect(tx, event, 'effects', 'b'),
    );
    await consumersB.start();
    await eventually(async () => expect(await effectsOf(events.map((e) => e.id))).toHaveLength(5));
    const effects = await effectsOf(events.map((e) => e.id));
    expect(effects.filter((e) => e.replica === 'b')).toHaveLength(4);
  });

  it('should create its durable consumer again and go on delivering when the consumer is deleted under it', async () => {
    const options = testJetStreamOptions(newPrefix(), { pullExpiresMs: 1_000 });
    const sut = await transportFor(options);
    const seen = new Set<string>();
    await sut.subscribe({ name: 'svc-restored', types: ['HITL'] }, async (event) => {
      seen.add(event.id);
    });
    const before = tenantEvent();
    await sut.publish(before);
    await eventually(async () => expect(seen.has(before.id)).toBe(true));

    await deleteConsumer(options.prefix, 'svc-restored');
    const after = tenantEvent();
    await sut.publish(after);

    await eventually(async () => expect(seen.has(after.id)).toBe(true), 200, 100);
  });
});

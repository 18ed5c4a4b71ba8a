import { randomUUID } from 'node:crypto';

import { EventEnvelope, EventType } from '@agp/contracts';
import { Database } from '@agp/database';
import { eventually } from '@agp/testing';

import {
  eventsStreamFacts,
  jetStreamBed,
  replicaTransport,
  testJetStreamOptions,
} from '../test/support/jetstream-test-kit';
import {
  countsById,
  outboxSize,
  recordEffect,
  silentLogger,
  storedEffects,
} from '../test/support/messaging-test-schema';
import { EventConsumers } from './event-consumers';
import { EventOutbox, buildEvent } from './event-outbox';
import { InProcessTransport } from './in-process.transport';
import { JetStreamTransport } from './jetstream.transport';
import { OutboxRelay } from './outbox-relay';

/** `addDurable` (T39): JetStream's acknowledgement, the outbox when NATS cannot give one. */
describe(`${EventOutbox.name}.addDurable`, () => {
  const bed = jetStreamBed('durable', 8);
  let database: Database;

  beforeAll(() => {
    database = bed.database;
  });

  afterEach(async () => {
    await database.asSystem((tx) => tx.query(`DELETE FROM ${database.schema}.outbox`));
  });

  function jetStreamOptions() {
    return testJetStreamOptions(bed.prefix());
  }

  function transportFor(options: ReturnType<typeof testJetStreamOptions>) {
    return bed.transport(options);
  }

  /** An outbox publishing straight to a JetStream transport of its own. */
  async function directOutbox() {
    const options = jetStreamOptions();
    const transport = await transportFor(options);
    const sut = new EventOutbox(database);
    sut.publishDurablyThrough(transport);
    return { options, transport, sut };
  }

  /** The audit service's part: a consumer that stores each event's effect once (its inbox). */
  async function consume(transport: JetStreamTransport): Promise<void> {
    const consumers = new EventConsumers('svc', database, transport);
    consumers.register('effects', ['HITL'], (event, tx) => recordEffect(tx, event, 'effects', 'a'));
    await consumers.start();
  }

  function hopEvents(count: number): Array<EventEnvelope<EventType, unknown>> {
    const context = { tenantId: randomUUID(), correlationId: randomUUID() };
    return Array.from({ length: count }, (_, i) =>
      buildEvent('HITL', context, { summary: `${i}` }),
    );
  }

  async function effectCounts(
    events: ReadonlyArray<EventEnvelope<EventType, unknown>>,
  ): Promise<number[]> {
    const counts = countsById(await storedEffects(database));
    return events.map((event) => counts.get(event.id) ?? 0);
  }

  it('should store the events in the stream when JetStream acknowledges them, leaving the outbox empty', async () => {
    const { options, transport, sut } = await directOutbox();
    const events = hopEvents(3);

    await sut.addDurable(events);

    expect(await eventsStreamFacts(options.prefix)).toEqual({ messages: 3 });
    expect(await outboxSize(database)).toBe(0);
    await consume(transport);
    await eventually(async () => expect(await effectCounts(events)).toEqual([1, 1, 1]));
  });

  it('should commit the events to the outbox when NATS is down, and deliver them once it is back', async () => {
    const options = jetStreamOptions();
    const down = await replicaTransport(options);
    await down.crash();
    const sut = new EventOutbox(database);
    sut.publishDurablyThrough(down.transport);
    const events = hopEvents(2);

    await sut.addDurable(events);

    expect(await outboxSize(database)).toBe(2);
    const back = await transportFor(options);
    await consume(back);
    await new OutboxRelay(database, back, silentLogger).drainOnce();
    await eventually(async () => expect(await effectCounts(events)).toEqual([1, 1]));
    expect(await outboxSize(database)).toBe(0);
  });

  it('should keep one stream message and one effect per event when the outbox publishes again what JetStream stored', async () => {
    // A direct publish whose acknowledgement came too late: the events went to the outbox too.
    const { options, transport, sut } = await directOutbox();
    const events = hopEvents(3);
    await sut.addDurable(events);
    await sut.addCommitted(events);

    await new OutboxRelay(database, transport, silentLogger).drainOnce();
    await consume(transport);

    await eventually(async () => expect(await effectCounts(events)).toEqual([1, 1, 1]));
    expect(await eventsStreamFacts(options.prefix)).toEqual({ messages: 3 });
    expect(await outboxSize(database)).toBe(0);
  });

  it('should commit to the outbox on the in-process bus, which stores nothing', async () => {
    const sut = new EventOutbox(database);
    sut.publishDurablyThrough(new InProcessTransport(silentLogger));

    await sut.addDurable(hopEvents(2));

    expect(await outboxSize(database)).toBe(2);
  });
});

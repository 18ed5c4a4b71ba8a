import { randomUUID } from 'node:crypto';

import { EventEnvelope } from '@agp/contracts';
import { Database } from '@agp/database';
import {
  TEST_NATS_URL,
  createTestDatabase,
  eventually,
  startNatsServer,
  TestDatabase,
  TestNatsServer,
  uniqueNatsPrefix,
} from '@agp/testing';

import { deleteNatsStreams } from './testing';
import { testJetStreamOptions } from '../test/support/jetstream-test-kit';
import {
  TEST_SCHEMA,
  openTestSchema,
  placeOrder,
  silentLogger,
} from '../test/support/messaging-test-schema';
import { ReplicaBroadcast } from './event-broadcast';
import { EventOutbox, buildEvent } from './event-outbox';
import { BroadcastListener, EventTransport } from './event-transport';
import { InProcessTransport } from './in-process.transport';
import { JetStreamTransport } from './jetstream.transport';
import { OutboxRelay } from './outbox-relay';

/** What a listener heard, in order; `gap` where it was told it may have missed events. */
function ear(): BroadcastListener & { heard: string[] } {
  const heard: string[] = [];
  return {
    heard,
    onEvent: (envelope) => void heard.push(envelope.id),
    onGap: () => void heard.push('gap'),
  };
}

describe(ReplicaBroadcast.name, () => {
  let testDatabase: TestDatabase;
  let database: Database;
  const prefixes: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    testDatabase = await createTestDatabase('broadcast');
    database = await openTestSchema(testDatabase.url);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
    // What a test left unpublished must not reach the next one's relay.
    await database.asSystem((tx) => tx.query(`DELETE FROM ${TEST_SCHEMA}.outbox`));
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
    for (const prefix of prefixes) {
      await deleteNatsStreams(prefix, TEST_NATS_URL);
    }
  });

  /** A replica as `EventBusModule` and `MessagingModule` wire it: its outbox feeds its broadcast. */
  function replicaOver(transport: EventTransport) {
    const broadcast = new ReplicaBroadcast(transport, silentLogger);
    const outbox = new EventOutbox(database);
    outbox.notifyOnCommit((envelopes) => broadcast.committed(envelopes));
    const relay = new OutboxRelay(database, transport, silentLogger);
    return { transport, broadcast, outbox, relay };
  }

  async function jetStreamReplica(prefix: string, url?: string) {
    const transport = await JetStreamTransport.connect(
      testJetStreamOptions(prefix, url ? { url } : {}),
      silentLogger,
    );
    cleanups.push(() => transport.close());
    return replicaOver(transport);
  }

  /** Resolves once `transport` has heard `envelope` published (its own raw listener). */
  async function publicationHeard(transport: EventTransport, envelope: EventEnvelope) {
    const probe = ear();
    const stop = await transport.listen([envelope.type], probe);
    return {
      done: async () => {
        await eventually(() => expect(probe.heard).toContain(envelope.id));
        await transport.ping();
        stop();
      },
    };
  }

  function otherEvent(): EventEnvelope {
    return buildEvent(
      'HITL_GUARD',
      { tenantId: randomUUID(), correlationId: randomUUID() },
      { summary: 'other' },
    );
  }

  describe.each([
    ['JetStream', 'jetstream'],
    ['in-process', 'in-process'],
  ] as const)('on the %s transport', (_label, kind) => {
    async function replicas() {
      if (kind === 'in-process') {
        const one = replicaOver(new InProcessTransport(silentLogger));
        return { here: one, there: undefined };
      }
      const prefix = uniqueNatsPrefix('bcast');
      prefixes.push(prefix);
      return { here: await jetStreamReplica(prefix), there: await jetStreamReplica(prefix) };
    }

    it('should let the replica that commits an event hear it before the commit returns, and only once when it is published', async () => {
      const { here, there } = await replicas();
      const [mine, others, another] = [ear(), ear(), ear()];
      await here.broadcast.listen(['HITL'], mine);
      await here.broadcast.listen(['HITL_GUARD'], others);
      if (there) {
        await there.broadcast.listen(['HITL', 'HITL_GUARD'], another);
      }

      const event = await placeOrder(database, here.outbox, randomUUID(), 'committed');

      expect(mine.heard).toEqual([event.id]);
      const published = await publicationHeard(here.transport, event);
      await here.relay.drainOnce();
      await published.done();
      expect(mine.heard).toEqual([event.id]);
      expect(others.heard).toEqual([]);
      if (there) {
        await eventually(() => expect(another.heard).toEqual([event.id]));
      }
    });

    it('should let every listener of a type hear what another replica publishes, until it stops', async () => {
      const { here, there } = await replicas();
      const publisher = there ?? here;
      const [first, second] = [ear(), ear()];
      const stopFirst = await here.broadcast.listen(['HITL_GUARD'], first);
      await here.broadcast.listen(['HITL', 'HITL_GUARD'], second);
      const event = otherEvent();

      await publisher.transport.publish(event);
      await eventually(() => expect([first.heard, second.heard]).toEqual([[event.id], [event.id]]));
      stopFirst();
      const later = otherEvent();
      await publisher.transport.publish(later);

      await eventually(() => expect(second.heard).toEqual([event.id, later.id]));
      expect(first.heard).toEqual([event.id]);
    });

    it('should tell a listener that throws to drop everything, and let the commit and the other listeners go on', async () => {
      const { here } = await replicas();
      const calm = ear();
      const thrown: string[] = [];
      await here.broadcast.listen(['HITL'], {
        onEvent: () => {
          throw new Error('listener bug');
        },
        onGap: () => void thrown.push('gap'),
      });
      await here.broadcast.listen(['HITL'], calm);

      const event = await placeOrder(database, here.outbox, randomUUID(), 'committed');

      expect(thrown).toEqual(['gap']);
      expect(calm.heard).toEqual([event.id]);
    });
  });

  it('should hear nothing at commit when a savepoint rolled back, and then hear the committed event once it is published', async () => {
    const { broadcast, outbox, relay, transport } = replicaOver(
      new InProcessTransport(silentLogger),
    );
    const listener = ear();
    await broadcast.listen(['HITL'], listener);
    const tenantId = randomUUID();
    const context = { tenantId, correlationId: randomUUID() };

    let rolledBack: EventEnvelope | undefined;
    const kept = await database.inTenant(tenantId, async (tx) => {
      const runner = tx.queryRunner!;
      await runner.startTransaction();
      rolledBack = await outbox.add(tx, 'HITL', context, { summary: 'rolled back' });
      await runner.rollbackTransaction();
      return outbox.add(tx, 'HITL', context, { summary: 'kept' });
    });

    expect(listener.heard).toEqual([]);
    await relay.drainOnce();
    expect(listener.heard).toContain(kept.id);
    expect(listener.heard).not.toContain(rolledBack?.id);
    await transport.close();
  });

  describe('when NATS goes away', () => {
    let server: TestNatsServer | undefined;

    afterAll(async () => {
      await server?.destroy();
    });

    it('should tell every listener that events may have been missed once the connection is back, and go on hearing', async () => {
      server = await startNatsServer();
      const { port, storeDir } = server;
      const prefix = uniqueNatsPrefix('bcastgap');
      const here = await jetStreamReplica(prefix, server.url);
      const [first, second] = [ear(), ear()];
      await here.broadcast.listen(['HITL'], first);
      await here.broadcast.listen(['HITL_GUARD'], second);

      await server.stop();
      server = await startNatsServer({ port, storeDir });

      await eventually(() => expect([first.heard, second.heard]).toEqual([['gap'], ['gap']]), 200);
      const event = otherEvent();
      await here.transport.publish(event);
      await eventually(() => expect(second.heard).toEqual(['gap', event.id]));
      expect(first.heard).toEqual(['gap']);
    }, 60_000);
  });
});

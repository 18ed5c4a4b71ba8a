import { randomUUID } from 'node:crypto';

import { EventEnvelope } from '@agp/contracts';
import { NatsConnection, connect } from '@nats-io/transport-node';

import {
  eventsStreamFacts,
  jetStreamBed,
  testJetStreamOptions,
} from '../test/support/jetstream-test-kit';
import { silentLogger } from '../test/support/messaging-test-schema';
import { AcknowledgedPublishes } from './acknowledged-publishes';
import { buildEvent } from './event-outbox';
import { JetStreamTransport } from './jetstream.transport';

/** R42: `publishAcknowledged` on one inbox subscription, as JetStream acknowledges each event. */
describe(AcknowledgedPublishes.name, () => {
  const bed = jetStreamBed('ackpub', 4);

  async function transportOnConnection(
    prefix: string,
  ): Promise<{ transport: JetStreamTransport; nc: NatsConnection }> {
    const options = testJetStreamOptions(prefix);
    const nc = await connect({ servers: options.url, name: `test-${prefix}` });
    const transport = await JetStreamTransport.overConnection(nc, options, silentLogger);
    bed.onCleanup(() => transport.close());
    return { transport, nc };
  }

  function hopEvents(count: number): EventEnvelope[] {
    return Array.from({ length: count }, () =>
      buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, { summary: 'x' }),
    );
  }

  it('should store every event once JetStream acknowledges it, with no request per publish', async () => {
    const prefix = bed.prefix();
    const { transport, nc } = await transportOnConnection(prefix);
    const requests = jest.spyOn(nc, 'request');
    const events = hopEvents(3);

    await transport.publishAcknowledged(events, 1_000);
    await transport.publishAcknowledged(events.slice(0, 1), 1_000);

    expect((await eventsStreamFacts(prefix)).messages).toBe(3);
    expect(requests).not.toHaveBeenCalled();
  });

  it('should refuse at once an event no stream stores, so the outbox takes it', async () => {
    const { nc } = await transportOnConnection(bed.prefix());
    const sut = new AcknowledgedPublishes(nc);
    const started = Date.now();

    const refused = sut
      .publish([{ subject: `nostream.${randomUUID()}`, payload: '{}', id: randomUUID() }], 5_000)
      .then(
        () => undefined,
        (error: Error) => error,
      );

    expect(await refused).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

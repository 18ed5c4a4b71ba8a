import { randomUUID } from 'node:crypto';

import { jetstream } from '@nats-io/jetstream';
import { NatsConnection, Subscription, connect } from '@nats-io/transport-node';
import { EventData, EventEnvelope, EventType } from '@agp/contracts';
import { JetStreamTransport, buildEvent, eventSubject } from '@agp/messaging';
import { TEST_NATS_URL } from '@agp/testing';
import pino from 'pino';

/** Publishes events as another service would (tenant-auth's USER_LIFECYCLE, AGENT_LIFECYCLE …). */
export class EventPublisher {
  private constructor(private readonly transport: JetStreamTransport) {}

  static async connect(prefix: string): Promise<EventPublisher> {
    const transport = await JetStreamTransport.connect(
      { url: TEST_NATS_URL, prefix, redelivery: { maxDeliveries: 3, backoffMs: [50] } },
      pino({ level: 'silent' }),
    );
    return new EventPublisher(transport);
  }

  async publish<T extends EventType>(
    type: T,
    tenantId: string,
    data: EventData<T>,
  ): Promise<EventEnvelope<T, EventData<T>>> {
    const envelope = buildEvent(type, { tenantId, correlationId: 'test' }, data);
    await this.transport.publish(envelope);
    return envelope;
  }

  /** The same envelope again under a new JetStream message id: what a redelivery looks like to a consumer. */
  async redeliver(prefix: string, envelope: EventEnvelope): Promise<void> {
    const nc = await connect({ servers: TEST_NATS_URL });
    try {
      await jetstream(nc).publish(eventSubject(prefix, envelope.type), JSON.stringify(envelope), {
        msgID: randomUUID(),
      });
    } finally {
      await nc.close();
    }
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

/** Hears every event published under a prefix (a plain subscription, as a test observer). */
export class EventTap {
  readonly events: EventEnvelope[] = [];

  private constructor(
    private readonly nc: NatsConnection,
    private readonly subscription: Subscription,
  ) {}

  static async open(prefix: string): Promise<EventTap> {
    const nc = await connect({ servers: TEST_NATS_URL });
    const events: EventEnvelope[] = [];
    const subscription = nc.subscribe(eventSubject(prefix, '>'), {
      callback: (_e, m) => void events.push(m.json<EventEnvelope>()),
    });
    await nc.flush();
    const tap = new EventTap(nc, subscription);
    Object.assign(tap, { events });
    return tap;
  }

  ofType(type: string): EventEnvelope<string, Record<string, unknown>>[] {
    return this.events.filter((e) => e.type === type) as EventEnvelope<
      string,
      Record<string, unknown>
    >[];
  }

  async close(): Promise<void> {
    this.subscription.unsubscribe();
    await this.nc.close();
  }
}

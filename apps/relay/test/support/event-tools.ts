import { EVENT_TYPES, EventData, EventEnvelope, EventType } from '@agp/contracts';
import { JetStreamTransport, StopListening, buildEvent } from '@agp/messaging';
import { TEST_NATS_URL } from '@agp/testing';
import pino from 'pino';

/** A transport of the test's own under `prefix`: tests reach NATS through the messaging library. */
function testTransport(prefix: string): Promise<JetStreamTransport> {
  return JetStreamTransport.connect(
    { url: TEST_NATS_URL, prefix, redelivery: { maxDeliveries: 3, backoffMs: [50] } },
    pino({ level: 'silent' }),
  );
}

/** Publishes events as another service would (tenant-auth's USER_LIFECYCLE, AGENT_LIFECYCLE …). */
export class EventPublisher {
  private constructor(private readonly transport: JetStreamTransport) {}

  static async connect(prefix: string): Promise<EventPublisher> {
    return new EventPublisher(await testTransport(prefix));
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
  async redeliver(_prefix: string, envelope: EventEnvelope): Promise<void> {
    await this.transport.replay(envelope);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

/** Hears every event published under a prefix (a plain subscription, as a test observer). */
export class EventTap {
  readonly events: EventEnvelope[] = [];

  private constructor(
    private readonly transport: JetStreamTransport,
    private readonly stopListening: StopListening,
  ) {}

  static async open(prefix: string): Promise<EventTap> {
    const transport = await testTransport(prefix);
    const events: EventEnvelope[] = [];
    const stopListening = await transport.listen(EVENT_TYPES, {
      onEvent: (envelope) => void events.push(envelope),
      onGap: () => undefined,
    });
    const tap = new EventTap(transport, stopListening);
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
    this.stopListening();
    await this.transport.close();
  }
}

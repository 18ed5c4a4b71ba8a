import {
  AgentSnapshot,
  EVENT_TYPES,
  EventData,
  EventEnvelope,
  EventType,
  TenantSnapshot,
  UserSnapshot,
} from '@agp/contracts';
import { JetStreamTransport, OwnerQueries, StopListening, buildEvent } from '@agp/messaging';
import { TEST_NATS_URL } from '@agp/testing';
import pino from 'pino';

/** A transport of the test's own under `prefix`: tests reach NATS through the messaging library. */
function testTransport(prefix: string): Promise<JetStreamTransport> {
  return JetStreamTransport.connect(
    { url: TEST_NATS_URL, prefix, redelivery: { maxDeliveries: 3, backoffMs: [50] } },
    pino({ level: 'silent' }),
  );
}

type Owned = AgentSnapshot | UserSnapshot | TenantSnapshot;

/**
 * Publishes events as another service would (tenant-auth's USER_LIFECYCLE, AGENT_LIFECYCLE …), and
 * answers the relay's questions about them as tenant-auth would (issue 30): an identity published
 * and not deleted, in the asking tenant, at the revision of its last event (1 when it had none).
 */
export class EventPublisher {
  /** By tenant and id: what tenant-auth would hold after the events published so far. */
  private readonly owned = new Map<string, Owned>();
  private readonly stops: StopListening[] = [];

  private constructor(private readonly transport: JetStreamTransport) {}

  static async connect(prefix: string): Promise<EventPublisher> {
    const publisher = new EventPublisher(await testTransport(prefix));
    await publisher.answerAsTenantAuth();
    return publisher;
  }

  async publish<T extends EventType>(
    type: T,
    tenantId: string,
    data: EventData<T>,
  ): Promise<EventEnvelope<T, EventData<T>>> {
    const envelope = this.commit(type, tenantId, data);
    await this.transport.publish(envelope);
    return envelope;
  }

  /**
   * What tenant-auth holds once it has committed a change whose event has not reached the relay
   * yet (its outbox, then NATS): answered to the relay's questions, not delivered. `publish` the
   * envelope to deliver it later.
   */
  commit<T extends EventType>(
    type: T,
    tenantId: string,
    data: EventData<T>,
  ): EventEnvelope<T, EventData<T>> {
    const envelope = buildEvent(type, { tenantId, correlationId: 'test' }, data);
    this.remember(envelope);
    return envelope;
  }

  /** Delivers an envelope `commit` made (the event of tenant-auth's outbox, late). */
  async deliver(envelope: EventEnvelope): Promise<void> {
    await this.transport.publish(envelope);
  }

  /** As tenant-auth stopped: the relay's questions find no answerer. */
  stopAnswering(): void {
    this.stops.splice(0).forEach((stop) => stop());
  }

  private remember({ type, tenantId, data }: EventEnvelope): void {
    const event = data as Record<string, unknown> & { change?: string; revision?: number };
    const revision = event.revision ?? 1;
    const held: [string, Owned] | undefined =
      type === 'AGENT_LIFECYCLE' && !(event.details as { origin?: string } | undefined)?.origin
        ? [
            String(event.agentId),
            {
              agentId: String(event.agentId),
              name: String(event.name),
              status: String(event.status),
              permissions: event.permissions as string[],
              revision,
            },
          ]
        : type === 'USER_LIFECYCLE'
          ? [
              String(event.userId),
              {
                userId: String(event.userId),
                email: String(event.email),
                displayName: event.displayName as string | undefined,
                status: String(event.status),
                revision,
              },
            ]
          : type === 'TENANT_LIFECYCLE'
            ? [
                String(event.tenantId),
                {
                  tenantId: String(event.tenantId),
                  slug: String(event.slug),
                  status: event.change === 'SUSPENDED' ? 'SUSPENDED' : 'ACTIVE',
                  revision,
                },
              ]
            : undefined;
    if (!held) {
      return;
    }
    const key = `${tenantId}/${held[0]}`;
    if (event.change === 'DELETED') {
      this.owned.delete(key);
    } else {
      this.owned.set(key, held[1]);
    }
  }

  async answerAsTenantAuth(): Promise<void> {
    const queries = new OwnerQueries(this.transport, pino({ level: 'silent' }));
    const find = <T extends Owned>(tenantId: string, id: string, field: string): T | null => {
      const held = this.owned.get(`${tenantId}/${id}`);
      return held && field in held ? (held as T) : null;
    };
    this.stops.push(
      await queries.answer('AGENT_IDENTITY', async ({ tenantId, id }) =>
        find<AgentSnapshot>(tenantId, id, 'agentId'),
      ),
      await queries.answer('USER_IDENTITY', async ({ tenantId, id }) =>
        find<UserSnapshot>(tenantId, id, 'userId'),
      ),
      await queries.answer('TENANT_IDENTITY', async ({ tenantId, id }) =>
        find<TenantSnapshot>(tenantId, id, 'tenantId'),
      ),
    );
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

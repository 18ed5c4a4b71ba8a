import { EventData, EventEnvelope, EventType } from '@agp/contracts';
import { Database, Tx } from '@agp/database';

import { assertValidEnvelope } from './envelope-validation';
import { EventTransport } from './event-transport';

export type EventHandler<T extends EventType> = (
  event: EventEnvelope<T, EventData<T>>,
  tx: Tx,
) => Promise<void>;

export interface ConsumerOptions {
  scope?: 'tenant' | 'system';
}

interface Registration {
  name: string;
  types: readonly EventType[];
  handler: EventHandler<EventType>;
  scope: 'tenant' | 'system';
}

/** A service's consumers (D5). */
export class EventConsumers {
  private readonly registrations: Registration[] = [];

  constructor(
    private readonly service: string,
    private readonly database: Database,
    private readonly transport: EventTransport,
  ) {}

  register<T extends EventType>(
    name: string,
    types: readonly T[],
    handler: EventHandler<T>,
    options: ConsumerOptions = {},
  ): void {
    this.registrations.push({
      name: `${this.service}-${name}`,
      types,
      handler: handler as unknown as EventHandler<EventType>,
      scope: options.scope ?? 'tenant',
    });
  }

  async start(): Promise<void> {
    for (const registration of this.registrations) {
      await this.transport.subscribe(registration, (envelope) =>
        this.process(registration, envelope),
      );
    }
  }

  /** Handles one delivery; resolves when it is safe to ack (processed now or before). */
  async process(registration: Registration, envelope: EventEnvelope): Promise<void> {
    assertValidEnvelope(envelope);
    if (!registration.types.includes(envelope.type as EventType)) {
      // Not this consumer's type (a transport whose filter is wider than the registration).
      return;
    }
    const event = envelope as EventEnvelope<EventType, EventData<EventType>>;
    const work = async (tx: Tx): Promise<void> => {
      const recorded: unknown[] = await tx.query(
        `INSERT INTO ${this.database.schema}.inbox (consumer, event_id) VALUES ($1, $2)
         ON CONFLICT DO NOTHING RETURNING event_id`,
        [registration.name, event.id],
      );
      if (recorded.length > 0) {
        await registration.handler(event, tx);
      }
    };
    await (registration.scope === 'system'
      ? this.database.asSystem(work)
      : this.database.inTenant(event.tenantId, work));
  }
}

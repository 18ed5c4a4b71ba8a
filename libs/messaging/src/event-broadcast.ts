import { EventEnvelope } from '@agp/contracts';
import { Logger } from 'pino';

import { BroadcastListener, EventTransport, StopListening } from './event-transport';

/** Apps ask for it under `EVENT_BROADCAST` and never open a connection of their own (STYLE § 14). */
export interface EventBroadcast {
  listen(types: readonly string[], listener: BroadcastListener): Promise<StopListening>;
}

export const EVENT_BROADCAST = Symbol('EVENT_BROADCAST');

/** Ids heard at their commit whose publication has not come back yet, per listener. */
const AWAITED_ECHOES = 10_000;

interface Registered {
  types: ReadonlySet<string>;
  listener: BroadcastListener;
  awaitedEchoes: Set<string>;
}

export class ReplicaBroadcast implements EventBroadcast {
  private readonly registered = new Set<Registered>();

  constructor(
    private readonly transport: EventTransport,
    private readonly logger: Logger,
  ) {}

  async listen(types: readonly string[], listener: BroadcastListener): Promise<StopListening> {
    const entry: Registered = { types: new Set(types), listener, awaitedEchoes: new Set() };
    this.registered.add(entry);
    try {
      const stopTransport = await this.transport.listen(types, {
        onEvent: (envelope) => {
          if (!entry.awaitedEchoes.delete(envelope.id)) {
            this.hand(entry, envelope);
          }
        },
        onGap: () => this.gap(entry),
      });
      return () => {
        this.registered.delete(entry);
        stopTransport();
      };
    } catch (error) {
      this.registered.delete(entry);
      throw error;
    }
  }

  // Events an outbox of this process has just committed (called by the outbox, inside the commit):
  // their listeners hear them now, and not again when the publication comes back.
  committed(envelopes: readonly EventEnvelope[]): void {
    if (this.registered.size === 0) {
      return;
    }
    for (const envelope of envelopes) {
      for (const entry of this.registered) {
        if (entry.types.has(envelope.type)) {
          awaitEcho(entry.awaitedEchoes, envelope.id);
          this.hand(entry, envelope);
        }
      }
    }
  }

  private hand(entry: Registered, envelope: EventEnvelope): void {
    try {
      entry.listener.onEvent(envelope);
    } catch (error) {
      this.logger.warn({ err: error, eventId: envelope.id }, 'broadcast listener failed');
      this.gap(entry);
    }
  }

  private gap(entry: Registered): void {
    try {
      entry.listener.onGap();
    } catch (error) {
      this.logger.error({ err: error }, 'broadcast listener failed on a gap');
    }
  }
}

function awaitEcho(awaited: Set<string>, id: string): void {
  awaited.add(id);
  if (awaited.size > AWAITED_ECHOES) {
    const oldest = awaited.values().next().value;
    if (oldest !== undefined) {
      awaited.delete(oldest);
    }
  }
}

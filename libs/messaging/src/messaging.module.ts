import {
  BeforeApplicationShutdown,
  DynamicModule,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER, ReadinessRegistry, StartupHooks } from '@agp/http';
import { Logger } from 'pino';

import { EVENT_BROADCAST, EventBroadcast, ReplicaBroadcast } from './event-broadcast';
import { EventConsumers } from './event-consumers';
import { EventOutbox } from './event-outbox';
import { EVENT_TRANSPORT, EventTransport } from './event-transport';
import { InProcessTransport } from './in-process.transport';
import { InboxPruner } from './inbox-pruner';
import { JetStreamTransport } from './jetstream.transport';
import { OutboxRelay } from './outbox-relay';
import { OWNER_QUERIES, OwnerQueries } from './owner-queries';
import { DEFAULT_REDELIVERY, RedeliveryPolicy } from './redelivery';

export interface EventBusOptions {
  /** Set: NATS JetStream; unset: in-process (D2). */
  natsUrl?: string;
  prefix: string;
  redelivery?: RedeliveryPolicy;
  ackWaitMs?: number;
  queryTimeoutMs?: number;
}

@Injectable()
class EventBusLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(@Inject(EVENT_TRANSPORT) private readonly transport: EventTransport) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.transport.stopConsumers();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.transport.close();
  }
}

/** The process's one event transport (D5) and its broadcast, imported once at the root. */
@Module({})
export class EventBusModule {
  static forRoot(options: EventBusOptions): DynamicModule {
    return {
      module: EventBusModule,
      global: true,
      providers: [
        {
          provide: EVENT_TRANSPORT,
          inject: [ReadinessRegistry, ROOT_LOGGER],
          useFactory: async (
            readiness: ReadinessRegistry,
            logger: Logger,
          ): Promise<EventTransport> => {
            const transport = options.natsUrl
              ? await JetStreamTransport.connect(
                  {
                    url: options.natsUrl,
                    prefix: options.prefix,
                    redelivery: options.redelivery ?? DEFAULT_REDELIVERY,
                    ackWaitMs: options.ackWaitMs,
                  },
                  logger,
                )
              : new InProcessTransport(logger);
            readiness.register('events', () => transport.ping());
            return transport;
          },
        },
        {
          // One per process: it hears any replica's publications and this process's commits.
          provide: EVENT_BROADCAST,
          inject: [EVENT_TRANSPORT, ROOT_LOGGER],
          useFactory: (transport: EventTransport, logger: Logger): EventBroadcast =>
            new ReplicaBroadcast(transport, logger),
        },
        {
          // Request-reply to the owner of an id (issue 30), over the same transport.
          provide: OWNER_QUERIES,
          inject: [EVENT_TRANSPORT, ROOT_LOGGER],
          useFactory: (transport: EventTransport, logger: Logger): OwnerQueries =>
            new OwnerQueries(transport, logger, options.queryTimeoutMs),
        },
        EventBusLifecycle,
      ],
      exports: [EVENT_TRANSPORT, EVENT_BROADCAST, OWNER_QUERIES],
    };
  }
}

export function outboxToken(service: string): symbol {
  return Symbol.for(`agp:${service}:outbox`);
}

export function consumersToken(service: string): symbol {
  return Symbol.for(`agp:${service}:consumers`);
}

export interface ServiceMessagingOptions {
  service: string;
  databaseToken: symbol;
}

@Module({})
export class MessagingModule {
  static forService(options: ServiceMessagingOptions): DynamicModule {
    const outbox = outboxToken(options.service);
    const consumers = consumersToken(options.service);
    const relay = Symbol.for(`agp:${options.service}:outbox-relay`);
    const pruner = Symbol.for(`agp:${options.service}:inbox-pruner`);

    @Injectable()
    class ServiceMessagingLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
      constructor(
        @Inject(relay) private readonly outboxRelay: OutboxRelay,
        @Inject(consumers) private readonly eventConsumers: EventConsumers,
        @Inject(pruner) private readonly inboxPruner: InboxPruner,
        private readonly startupHooks: StartupHooks,
      ) {}

      async onApplicationBootstrap(): Promise<void> {
        await this.eventConsumers.start();
        // Publish only once every service in the process has subscribed (F7).
        this.startupHooks.afterBootstrap(() => this.outboxRelay.start());
        this.inboxPruner.start();
      }

      async beforeApplicationShutdown(): Promise<void> {
        await Promise.all([this.outboxRelay.stop(), this.inboxPruner.stop()]);
      }
    }

    return {
      module: MessagingModule,
      global: true,
      providers: [
        {
          provide: outbox,
          inject: [options.databaseToken, EVENT_BROADCAST, EVENT_TRANSPORT],
          useFactory: (
            database: Database,
            broadcast: ReplicaBroadcast,
            transport: EventTransport,
          ) => {
            const eventOutbox = new EventOutbox(database);
            eventOutbox.notifyOnCommit((envelopes) => broadcast.committed(envelopes));
            eventOutbox.publishDurablyThrough(transport);
            return eventOutbox;
          },
        },
        {
          provide: relay,
          inject: [options.databaseToken, EVENT_TRANSPORT, ROOT_LOGGER, outbox],
          useFactory: (
            database: Database,
            transport: EventTransport,
            logger: Logger,
            eventOutbox: EventOutbox,
          ) => {
            const outboxRelay = new OutboxRelay(database, transport, logger);
            eventOutbox.notifyOnAdd(() => outboxRelay.kick());
            return outboxRelay;
          },
        },
        {
          provide: pruner,
          inject: [options.databaseToken, ROOT_LOGGER],
          useFactory: (database: Database, logger: Logger) => new InboxPruner(database, logger),
        },
        {
          provide: consumers,
          inject: [options.databaseToken, EVENT_TRANSPORT],
          useFactory: (database: Database, transport: EventTransport) =>
            new EventConsumers(options.service, database, transport),
        },
        ServiceMessagingLifecycle,
      ],
      exports: [outbox, consumers],
    };
  }
}

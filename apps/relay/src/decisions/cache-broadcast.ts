import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection, Subscription, connect } from '@nats-io/transport-node';
import { EventEnvelope } from '@agp/contracts';
import { ROOT_LOGGER } from '@agp/http';
import { eventSubject } from '@agp/messaging';
import { Logger } from 'pino';

import { DecisionCache } from './decision-cache';
import { DECISION_OPTIONS, DecisionOptions } from './decision-options';

/**
 * R3: every replica drops its cached policies when any replica changes them. The durable consumers
 * are shared (one replica gets each event), so each replica also listens with a plain core-NATS
 * subscription on the subject JetStream stores POLICY_LIFECYCLE under: the outbox publishes it once,
 * after commit, and every replica hears it. Lost connection: the whole cache is dropped on reconnect.
 */
@Injectable()
export class CacheBroadcast implements OnApplicationBootstrap, OnApplicationShutdown {
  private connection?: NatsConnection;
  private subscription?: Subscription;

  constructor(
    private readonly cache: DecisionCache,
    @Inject(DECISION_OPTIONS) private readonly options: DecisionOptions,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.natsUrl) {
      return; // one process (D2): the service that changed the policy already dropped the entry
    }
    const nc = await connect({
      servers: this.options.natsUrl,
      name: `agp-${this.options.natsPrefix}-relay-cache`,
      reconnect: true,
      maxReconnectAttempts: -1,
    });
    this.connection = nc;
    this.subscription = nc.subscribe(eventSubject(this.options.natsPrefix, 'POLICY_LIFECYCLE'), {
      callback: (error, message) => {
        if (error) {
          this.cache.clear();
          return;
        }
        try {
          const envelope = message.json<EventEnvelope>();
          this.cache.invalidate(envelope.tenantId);
        } catch {
          this.cache.clear();
        }
      },
    });
    void this.watchStatus(nc);
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscription?.unsubscribe();
    await this.connection?.close();
  }

  private async watchStatus(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === 'reconnect') {
        this.logger.warn('policy cache broadcast reconnected: dropping every cached policy');
        this.cache.clear();
      }
    }
  }
}

import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EVENT_TRANSPORT, EventTransport, StopListening } from '@agp/messaging';

import { DecisionCache } from './decision-cache';

/**
 * R3: every replica drops its cached policies when any replica changes them. The durable consumers
 * are shared (one replica gets each event), so each replica also listens to POLICY_LIFECYCLE as it
 * is published (the messaging library's broadcast); events possibly missed drop the whole cache.
 */
@Injectable()
export class CacheBroadcast implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopListening?: StopListening;

  constructor(
    private readonly cache: DecisionCache,
    @Inject(EVENT_TRANSPORT) private readonly transport: EventTransport,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stopListening = await this.transport.listen(['POLICY_LIFECYCLE'], {
      onEvent: (envelope) => this.cache.invalidate(envelope.tenantId),
      onGap: () => this.cache.clear(),
    });
  }

  onApplicationShutdown(): void {
    this.stopListening?.();
  }
}

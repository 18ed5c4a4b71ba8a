import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { RELAY_CONSUMERS } from '../database/tokens';
import { WebhookFanOut } from './webhook-fan-out';
import { WEBHOOK_EVENT_TYPES, WebhookEvent } from './webhook-events';

/** D19: a durable consumer with the inbox, so each event is handled once across replicas. */
@Injectable()
export class WebhooksListener implements OnModuleInit {
  constructor(
    @Inject(RELAY_CONSUMERS) private readonly consumers: EventConsumers,
    private readonly fanOut: WebhookFanOut,
  ) {}

  onModuleInit(): void {
    this.consumers.register('webhooks', WEBHOOK_EVENT_TYPES, (event, tx: Tx) =>
      this.fanOut.apply(event as WebhookEvent, tx),
    );
  }
}

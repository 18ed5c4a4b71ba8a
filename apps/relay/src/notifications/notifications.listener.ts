import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { RELAY_CONSUMERS } from '../database/tokens';
import { NOTIFICATION_SOURCE_TYPES } from './notification-events';
import { NotificationFanOut } from './notification-fan-out';

/**
 * New holds, alerts and engaged kill switches become deliveries to the tenant's targets, through
 * the durable consumer `relay-notifications` and its inbox (W21). The dispatcher's poll finds
 * them once the event's transaction commits.
 */
@Injectable()
export class NotificationsListener implements OnModuleInit {
  constructor(
    @Inject(RELAY_CONSUMERS) private readonly consumers: EventConsumers,
    private readonly fanOut: NotificationFanOut,
  ) {}

  onModuleInit(): void {
    this.consumers.register('notifications', NOTIFICATION_SOURCE_TYPES, (event, tx: Tx) =>
      this.fanOut.apply(event, tx),
    );
  }
}

import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { RELAY_CONSUMERS } from '../database/tokens';
import { NOTIFICATION_SOURCE_TYPES } from './notification-events';
import { NotificationFanOut } from './notification-fan-out';

/** W21: durable consumer `relay-notifications`; the dispatcher sees rows once the event commits. */
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

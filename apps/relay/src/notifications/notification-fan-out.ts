import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { EventEnvelope } from '@agp/contracts';
import { Tx } from '@agp/database';

import { PUBLIC_BASE_URL } from '../config/relay-config.module';
import { noticeOf } from './notification-events';
import { notificationBody } from './notification-messages';
import { NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { NotificationTargetsRepository } from './notification-targets.repository';

/** W21: written with the inbox record, so an event makes its deliveries once. */
@Injectable()
export class NotificationFanOut {
  constructor(
    @Inject(PUBLIC_BASE_URL) private readonly publicBaseUrl: string,
    private readonly targets: NotificationTargetsRepository,
    private readonly deliveries: NotificationDeliveriesRepository,
  ) {}

  async apply(event: EventEnvelope, tx: Tx): Promise<void> {
    const notice = noticeOf(event, this.publicBaseUrl);
    if (!notice) {
      return;
    }
    const audience = await this.targets.audienceOf(
      tx,
      event.tenantId,
      notice.event,
      notice.severity,
    );
    await this.deliveries.insert(
      tx,
      event.tenantId,
      event,
      notice.event,
      audience.map((target) => {
        const id = randomUUID();
        return {
          id,
          targetId: target.id,
          payload: JSON.stringify(notificationBody(notice, event, id)),
        };
      }),
    );
  }
}

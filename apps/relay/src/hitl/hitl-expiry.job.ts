import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { hitlEventData } from './hitl-events';
import { HitlRepository } from './hitl.repository';
import { HitlWaiters } from './hitl-waiters';

const BATCH = 500;

/** D34, F30: HITL_GUARD in the expiring transaction; wakes a call waiting here. */
@Injectable()
export class HitlExpiryJob {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly holds: HitlRepository,
    private readonly waiters: HitlWaiters,
  ) {}

  async tick(): Promise<number> {
    const expired = await this.database.asSystem(async (tx) => {
      const due = await this.holds.expireDue(tx, BATCH);
      for (const request of due) {
        await this.outbox.add(
          tx,
          'HITL_GUARD',
          { tenantId: request.tenantId, correlationId: request.correlationId },
          hitlEventData(request, 'expired without a decision', { guard: 'EXPIRED' }),
        );
      }
      return due;
    });
    for (const request of expired) {
      this.waiters.notify(request.id, 'EXPIRED');
    }
    return expired.length;
  }
}

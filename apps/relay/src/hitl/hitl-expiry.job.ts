import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Database } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { hitlEventData } from './hitl-events';
import { HitlRepository } from './hitl.repository';
import { HitlWaiters } from './hitl-waiters';

const TICK_MS = 5_000;
const BATCH = 500;

/**
 * D34 expiry, once per tick across replicas: every replica ticks, the one that takes the
 * transaction-scoped advisory lock does the work; each expired hold records HITL_GUARD in the
 * transaction that expired it.
 */
@Injectable()
export class HitlExpiryJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly holds: HitlRepository,
    private readonly waiters: HitlWaiters,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.tick()
        .then(() => undefined)
        .catch(() => undefined)
        .finally(() => {
          this.running = undefined;
        });
    }, TICK_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Expires what is due; the number expired by this replica in this tick. */
  async tick(): Promise<number> {
    const expired = await this.database.asSystem(async (tx) => {
      const [lock] = await tx.query<Array<{ taken: boolean }>>(
        `SELECT pg_try_advisory_xact_lock(hashtext('relay.hitl-expiry')) AS taken`,
      );
      if (!lock?.taken) {
        return [];
      }
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

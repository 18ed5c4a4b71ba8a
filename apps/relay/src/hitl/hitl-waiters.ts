import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { Database } from '@agp/database';
import { EVENT_BROADCAST, EventBroadcast, StopListening } from '@agp/messaging';

import { RELAY_DATABASE } from '../database/tokens';
import { HitlRepository } from './hitl.repository';
import { HitlStatus } from './hitl.types';

export const HITL_POLL_MS = 250;

type Resolve = (status: HitlStatus | 'TIMEOUT') => void;

/**
 * D34, T14: a broadcast wakes waiters of other replicas' decisions; one query per tick for all
 * waiters finds what a broadcast missed (1,000 waiters, one query).
 */
@Injectable()
export class HitlWaiters implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly waiting = new Map<string, Set<Resolve>>();
  private timer?: NodeJS.Timeout;
  private isPolling = false;

  private stopListening?: StopListening;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly holds: HitlRepository,
    @Inject(EVENT_BROADCAST) private readonly broadcast: EventBroadcast,
  ) {}

  /** A decision published by any replica wakes the callers waiting here at once (the poll is the net). */
  async onApplicationBootstrap(): Promise<void> {
    this.stopListening = await this.broadcast.listen(['HITL_RESOLUTION', 'HITL_GUARD'], {
      onEvent: (envelope) => {
        const details = (
          envelope.data as { details?: { hitlRequestId?: unknown; status?: unknown } }
        ).details;
        if (typeof details?.hitlRequestId === 'string' && typeof details.status === 'string') {
          this.notify(details.hitlRequestId, details.status as HitlStatus);
        }
      },
      onGap: () => void this.poll(),
    });
  }

  wait(id: string, seconds: number, signal?: AbortSignal): Promise<HitlStatus | 'TIMEOUT'> {
    return new Promise((resolve) => {
      const done: Resolve = (status) => {
        clearTimeout(timeout);
        signal?.removeEventListener('abort', onAbort);
        this.remove(id, done);
        resolve(status);
      };
      const onAbort = (): void => done('TIMEOUT');
      const timeout = setTimeout(() => done('TIMEOUT'), seconds * 1000);
      signal?.addEventListener('abort', onAbort);
      this.waiting.set(id, (this.waiting.get(id) ?? new Set()).add(done));
      this.timer ??= setInterval(() => void this.poll(), HITL_POLL_MS);
    });
  }

  /** A decision made on this replica: its waiters go on without waiting for the next poll. */
  notify(id: string, status: HitlStatus): void {
    for (const resolve of [...(this.waiting.get(id) ?? [])]) {
      resolve(status);
    }
  }

  get count(): number {
    let total = 0;
    for (const set of this.waiting.values()) {
      total += set.size;
    }
    return total;
  }

  /** Before the HTTP server closes (it waits for open calls): waiters answer −31004 (T14, D41). */
  beforeApplicationShutdown(): void {
    this.stopListening?.();
    for (const id of [...this.waiting.keys()]) {
      this.notify(id, 'PENDING');
    }
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async poll(): Promise<void> {
    if (this.isPolling || this.waiting.size === 0) {
      return;
    }
    this.isPolling = true;
    try {
      const decided = await this.database.asSystem((tx) =>
        this.holds.decidedAmong(tx, [...this.waiting.keys()]),
      );
      for (const { id, status } of decided) {
        this.notify(id, status);
      }
    } catch {
      // The database is away: waiters keep waiting until their own timeout.
    } finally {
      this.isPolling = false;
    }
  }

  private remove(id: string, resolve: Resolve): void {
    const set = this.waiting.get(id);
    set?.delete(resolve);
    if (set && set.size === 0) {
      this.waiting.delete(id);
    }
    if (this.waiting.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../../../database/tokens';
import { InputMailboxRepository, MailboxSlot } from './input-mailbox.repository';

/** How often a replica looks for the messages its waiters wait for (one query for all). */
export const MAILBOX_POLL_MS = 250;

type Resolve = (message: unknown) => void;

/**
 * T101: what one replica waits for and another may receive (a 2025 client's answer to an input
 * request lands on any replica; so does a 2026 client's retry of a held call, T102). The slot is a
 * row: whoever receives the message fills it, and the waiting replica takes it on its next poll
 * (or at once, when it filled the slot itself). A person answers at a person's pace; a quarter of
 * a second is nothing beside it, and no replica needs to know which holds the stream.
 */
@Injectable()
export class McpInputMailbox implements BeforeApplicationShutdown {
  private readonly repository = new InputMailboxRepository();
  private readonly waiting = new Map<string, Resolve>();
  private timer?: NodeJS.Timeout;
  private isPolling = false;

  constructor(@Inject(RELAY_DATABASE) private readonly database: Database) {}

  /** Slots are opened before anyone is told of them, so a fast answer finds its slot. */
  async open(tenantId: string, slots: readonly Omit<MailboxSlot, 'tenantId'>[]): Promise<void> {
    // Every tenant's forgotten slots: RLS would confine the sweep to this tenant's.
    await this.database.asSystem((tx) => this.repository.forgetUnused(tx));
    await this.database.inTenant(tenantId, (tx) =>
      this.repository.open(
        tx,
        slots.map((slot) => ({ ...slot, tenantId })),
      ),
    );
  }

  /** Slots nobody will fill any more (their call ended before it was resumed). */
  async drop(ids: readonly string[]): Promise<void> {
    await this.database.asSystem((tx) => this.repository.drop(tx, ids));
  }

  /** The slot's message, or undefined when the time ran out or `signal` ended the wait. */
  receive(id: string, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    return new Promise((resolve) => {
      const done = (message?: unknown): void => {
        clearTimeout(timeout);
        signal?.removeEventListener('abort', gone);
        this.waiting.delete(id);
        this.stopPollingWhenIdle();
        if (message === undefined) {
          void this.database.asSystem((tx) => this.repository.drop(tx, [id])).catch(() => {});
        }
        resolve(message);
      };
      const gone = (): void => done();
      const timeout = setTimeout(gone, timeoutMs);
      if (signal?.aborted) {
        done();
        return;
      }
      signal?.addEventListener('abort', gone);
      this.waiting.set(id, done);
      this.timer ??= setInterval(() => void this.poll(), MAILBOX_POLL_MS);
    });
  }

  /** False when there is no such open slot for this party (unknown, taken, or filled already). */
  async deliver(slot: MailboxSlot, message: unknown): Promise<boolean> {
    const filled = await this.database.inTenant(slot.tenantId, (tx) =>
      this.repository.fill(tx, slot, message),
    );
    if (filled && this.waiting.has(slot.id)) {
      void this.poll();
    }
    return filled;
  }

  /** Waiters end (their callers answer as on a timeout); their rows go with them. */
  beforeApplicationShutdown(): void {
    for (const done of [...this.waiting.values()]) {
      done(undefined);
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
      const taken = await this.database.asSystem((tx) =>
        this.repository.takeFilled(tx, [...this.waiting.keys()]),
      );
      for (const { id, message } of taken) {
        this.waiting.get(id)?.(message);
      }
    } catch {
      // The database is away: waiters keep waiting until their own timeout.
    } finally {
      this.isPolling = false;
    }
  }

  private stopPollingWhenIdle(): void {
    if (this.waiting.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

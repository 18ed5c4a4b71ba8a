import { EventEnvelope } from '@agp/contracts';
import { Database } from '@agp/database';
import { Logger } from 'pino';

import { EventTransport } from './event-transport';

export interface OutboxRelayOptions {
  batchSize: number;
  idleMs: number;
  maxBackoffMs: number;
}

const DEFAULTS: OutboxRelayOptions = { batchSize: 200, idleMs: 250, maxBackoffMs: 5_000 };

/** Outbox rows being published in this process (in-process bus only; see drainInline). */
const INLINE_CLAIMS = new Set<string>();

/**
 * Publishes committed outbox rows and deletes them in the same transaction. Rows are claimed with
 * SKIP LOCKED, so replicas share the work; if publishing fails the transaction rolls back and the
 * rows wait for the next try. A row published but not deleted (crash) is published again: the
 * event id makes JetStream drop the repeat, and consumers are idempotent anyway.
 */
export class OutboxRelay {
  private readonly options: OutboxRelayOptions;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private isStopped = true;
  private failures = 0;

  constructor(
    private readonly database: Database,
    private readonly transport: EventTransport,
    private readonly logger: Logger,
    options: Partial<OutboxRelayOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  start(): void {
    this.isStopped = false;
    this.schedule(0);
  }

  /** Drain soon: something was just added (in this replica). */
  kick(): void {
    if (!this.isStopped && this.failures === 0) {
      this.schedule(5);
    }
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.isStopped || this.running) {
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = undefined;
      });
    }, delayMs);
  }

  private async tick(): Promise<void> {
    let next = this.options.idleMs;
    try {
      const published = await this.drainOnce();
      this.failures = 0;
      next = published === this.options.batchSize ? 0 : this.options.idleMs;
    } catch (error) {
      this.failures += 1;
      next = Math.min(this.options.idleMs * 2 ** this.failures, this.options.maxBackoffMs);
      this.logger.warn(
        { err: error, schema: this.database.schema, retryInMs: next },
        'outbox publish failed',
      );
    }
    this.running = undefined;
    this.schedule(next);
  }

  /** Publishes one batch; returns how many rows it published. */
  async drainOnce(): Promise<number> {
    return this.transport.deliversInline ? this.drainInline() : this.drainLocked();
  }

  /**
   * In-process: read the batch, then publish and delete each row outside any open transaction. Rows
   * are claimed in this process (the only one an in-process bus has) and re-checked after the
   * claim, so two relays of one schema never deliver a row twice. A crash between publish and
   * delete republishes the row on restart; idempotent consumers make that harmless.
   */
  private async drainInline(): Promise<number> {
    const { schema } = this.database;
    const rows: Array<{ id: string; envelope: EventEnvelope }> = await this.database.asSystem(
      (tx) =>
        tx.query(`SELECT id, envelope FROM ${schema}.outbox ORDER BY seq LIMIT $1`, [
          this.options.batchSize,
        ]),
    );
    let published = 0;
    for (const row of rows) {
      const claim = `${schema}:${row.id}`;
      if (INLINE_CLAIMS.has(claim)) {
        continue;
      }
      INLINE_CLAIMS.add(claim);
      try {
        const present: unknown[] = await this.database.asSystem((tx) =>
          tx.query(`SELECT 1 FROM ${schema}.outbox WHERE id = $1`, [row.id]),
        );
        if (present.length === 0) {
          continue;
        }
        await this.transport.publish(row.envelope);
        await this.database.asSystem((tx) =>
          tx.query(`DELETE FROM ${schema}.outbox WHERE id = $1`, [row.id]),
        );
        published += 1;
      } finally {
        INLINE_CLAIMS.delete(claim);
      }
    }
    return published;
  }

  private async drainLocked(): Promise<number> {
    const { schema } = this.database;
    return this.database.asSystem(async (tx) => {
      const rows: Array<{ id: string; envelope: EventEnvelope }> = await tx.query(
        `SELECT id, envelope FROM ${schema}.outbox ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.options.batchSize],
      );
      // Pipelined: every publish goes out at once on the one connection, so the stream keeps the
      // outbox order, and the batch takes one round trip instead of one per event.
      await Promise.all(rows.map((row) => this.transport.publish(row.envelope)));
      if (rows.length > 0) {
        await tx.query(`DELETE FROM ${schema}.outbox WHERE id = ANY($1::uuid[])`, [
          rows.map((r) => r.id),
        ]);
      }
      return rows.length;
    });
  }
}

import { EventEnvelope } from '@agp/contracts';
import { Database, queryNamed } from '@agp/database';
import { ClaimLoop } from '@agp/jobs';
import { Logger } from 'pino';

import { EventTransport } from './event-transport';

export interface OutboxRelayOptions {
  batchSize: number;
  /** The poll while nothing kicks: only the net for rows a crash or a lost kick left (F43, F52). */
  idleMs: number;
  /** The first retry after a failed drain, doubled per failure up to `maxBackoffMs`. */
  retryMs: number;
  maxBackoffMs: number;
  /** How soon after a kick the outbox is drained: what gathers meanwhile goes as one batch. */
  kickDelayMs: number;
}

/**
 * F52: every row is added with a kick of its own replica's relay (`notifyOnAdd`), so the poll only
 * finds what a crashed replica or a lost kick left: 2 s, as F43 set for the in-process bus, where
 * 250 ms cost each service three statements four times a second with no traffic at all.
 */
const DEFAULTS: OutboxRelayOptions = {
  batchSize: 200,
  idleMs: 2_000,
  retryMs: 250,
  maxBackoffMs: 5_000,
  kickDelayMs: 5,
};

/**
 * F43: the in-process bus (one process, D2) has consumers that take a drain as one transaction
 * (F32), so a drain that waits a little for more rows costs less per event.
 */
const INLINE_DEFAULTS: Pick<OutboxRelayOptions, 'kickDelayMs'> = {
  kickDelayMs: 40,
};

/** Outbox rows being published in this process (in-process bus only; see drainInline). */
const INLINE_CLAIMS = new Set<string>();

/**
 * Rows are claimed with SKIP LOCKED, so replicas share the work. F59: the loop is `@agp/jobs`'
 * claim loop; a claim publishes one batch in its own transaction, and its item is the batch's size.
 */
export class OutboxRelay {
  private readonly options: OutboxRelayOptions;
  private readonly loop: ClaimLoop<number>;

  constructor(
    private readonly database: Database,
    private readonly transport: EventTransport,
    logger: Logger,
    options: Partial<OutboxRelayOptions> = {},
  ) {
    this.options = {
      ...DEFAULTS,
      ...(transport.deliversInline ? INLINE_DEFAULTS : {}),
      // A caller that polls faster than the default retry retries as fast (tests, F52).
      ...(options.idleMs !== undefined
        ? { retryMs: Math.min(options.idleMs, DEFAULTS.retryMs) }
        : {}),
      ...options,
    };
    const { batchSize, idleMs, kickDelayMs, retryMs, maxBackoffMs } = this.options;
    this.loop = new ClaimLoop({
      name: 'outbox publish',
      pollIntervalMs: idleMs,
      kickDelayMs,
      retry: { firstMs: retryMs, maxMs: maxBackoffMs },
      // A full batch may have left more: the loop claims again at once.
      isLastClaim: ([published]) => published < batchSize,
      claim: async () => {
        const published = await this.drainOnce();
        return published > 0 ? [published] : [];
      },
      logger: logger.child({ schema: database.schema }),
    });
  }

  /** Polls, and drains at once what a crash left (F43). */
  start(): void {
    this.loop.start();
    this.loop.drainNow();
  }

  /** Drain soon: something was just added (in this replica). */
  kick(): void {
    this.loop.kick();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  async drainOnce(): Promise<number> {
    return this.transport.deliversInline ? this.drainInline() : this.drainLocked();
  }

  // Rows are claimed in this process (the only one an in-process bus has) and re-checked after the
  // claim, so two relays of one schema never deliver a row twice.
  private async drainInline(): Promise<number> {
    const { schema } = this.database;
    // Rows another relay of this process is publishing are left out of the read, not out of the
    // batch after it: otherwise a relay whose first rows are claimed would read nothing else.
    const inFlight = [...INLINE_CLAIMS]
      .filter((claim) => claim.startsWith(`${schema}:`))
      .map((claim) => claim.slice(schema.length + 1));
    // F64: bare statements, as `commitStatement`; the embedded session keeps each one together.
    const rows: OutboxRow[] = await this.database.dataSource.query(
      `SELECT id, envelope FROM ${schema}.outbox WHERE id <> ALL($2::uuid[]) ORDER BY seq LIMIT $1`,
      [this.options.batchSize, inFlight],
    );
    const claimed = rows.filter((row) => !INLINE_CLAIMS.has(`${schema}:${row.id}`));
    if (claimed.length === 0) {
      return 0;
    }
    const claims = claimed.map((row) => `${schema}:${row.id}`);
    claims.forEach((claim) => INLINE_CLAIMS.add(claim));
    const published: string[] = [];
    try {
      const present: Array<{ id: string }> = await this.database.dataSource.query(
        `SELECT id FROM ${schema}.outbox WHERE id = ANY($1::uuid[])`,
        [claimed.map((row) => row.id)],
      );
      const stillThere = new Set(present.map((row) => row.id));
      try {
        const due = claimed.filter((row) => stillThere.has(row.id));
        if (this.transport.publishInline) {
          // F32: the batch at once, in outbox order; a batch consumer takes it in one transaction.
          await this.transport.publishInline(due.map((row) => row.envelope));
          published.push(...due.map((row) => row.id));
        } else {
          for (const row of due) {
            await this.transport.publish(row.envelope);
            published.push(row.id);
          }
        }
      } finally {
        // What went out is deleted even when a later row failed, so it is not published twice.
        if (published.length > 0) {
          await this.database.dataSource.query(
            `DELETE FROM ${schema}.outbox WHERE id = ANY($1::uuid[])`,
            [published],
          );
        }
      }
    } finally {
      claims.forEach((claim) => INLINE_CLAIMS.delete(claim));
    }
    return published.length;
  }

  /** The outbox has no row-level security, so no scope is set: three round trips per batch. */
  private async drainLocked(): Promise<number> {
    const { schema } = this.database;
    return this.database.dataSource.transaction(async (tx) => {
      const [rows] = await queryNamed<[Array<OutboxRow & { seq: string }>, number]>(
        tx,
        `DELETE FROM ${schema}.outbox
          WHERE seq IN (SELECT seq FROM ${schema}.outbox ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
          RETURNING seq, id, envelope`,
        [this.options.batchSize],
      );
      // RETURNING follows no order: the stream keeps the outbox's.
      rows.sort((a, b) => compareSeq(a.seq, b.seq));
      // Pipelined: every publish goes out at once on the one connection, so the stream keeps the
      // outbox order, and the batch takes one round trip instead of one per event.
      await Promise.all(rows.map((row) => this.transport.publish(row.envelope)));
      return rows.length;
    });
  }
}

interface OutboxRow {
  id: string;
  envelope: EventEnvelope;
}

export function compareSeq(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

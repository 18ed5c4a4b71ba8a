import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { ClaimLoop, ClaimLoopWorker } from '@agp/jobs';
import { Logger } from 'pino';

import { RELAY_DATABASE } from '../../database/tokens';
import { ChannelEventRow, ChannelEventsRepository } from './channel-events.repository';
import { ChannelExchange } from './channel-exchange';

/** Events in hand at once per replica. */
const CONCURRENCY = 16;
/** Longer than the slowest agent (its timeout) and a reply's post: then another replica may try. */
const LEASE_MS = 5 * 60_000;
const POLL_MS = 500;

/**
 * CH4: each due event leased to one replica (`SKIP LOCKED`) and the row is the state, so a restart
 * loses nothing; a dead replica's lease expires and another resumes from the last step.
 */
@Injectable()
export class ChannelWorker extends ClaimLoopWorker<ChannelEventRow> {
  protected readonly loop: ClaimLoop<ChannelEventRow>;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly events: ChannelEventsRepository,
    private readonly exchange: ChannelExchange,
  ) {
    super();
    this.loop = new ClaimLoop({
      name: 'channel-events',
      pollIntervalMs: POLL_MS,
      claim: () => this.database.asSystem((tx) => this.events.claimDue(tx, CONCURRENCY, LEASE_MS)),
      handle: (row) => this.handle(row),
      logger,
    });
  }

  private async handle(row: ChannelEventRow): Promise<void> {
    try {
      await this.exchange.handle(row);
    } catch (error) {
      // A fault of ours (the database, a secret that cannot be opened): tried again later.
      this.logger.error({ err: error, channelEventId: row.id }, 'channel event failed');
      await this.database
        .asSystem((tx) =>
          this.events.save(tx, row.id, {
            status:
              row.attempts + 1 >= 6 ? 'FAILED' : row.status === 'RECEIVED' ? 'PENDING' : row.status,
            lastError: error instanceof Error ? error.message : String(error),
            retryInMs: 5_000,
            failed: true,
          }),
        )
        .catch(() => undefined);
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../../database/tokens';
import { ChannelEventsRepository } from './channel-events.repository';

/** CH13: a settled channel event is kept 7 days, past every platform's retries (CH3). */
export const CHANNEL_EVENT_RETENTION_MS = 7 * 86_400_000;

/** Removes settled channel events past their retention; hourly, once across replicas (F30). */
@Injectable()
export class ChannelEventsRetentionJob {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly events: ChannelEventsRepository,
  ) {}

  tick(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - CHANNEL_EVENT_RETENTION_MS);
    return this.database.asSystem((tx) => this.events.pruneSettled(tx, before));
  }
}

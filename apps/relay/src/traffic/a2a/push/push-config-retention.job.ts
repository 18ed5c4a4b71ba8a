import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../../../database/tokens';
import { PushConfigsRepository } from './push-configs.repository';

/** T113: a task that ended may still push a late update for a while; a day covers it. */
export const PUSH_CONFIG_AFTER_END_MS = 86_400_000;
/** T113: a configuration that saw no push and no change for 30 days is abandoned. */
export const PUSH_CONFIG_IDLE_MS = 30 * 86_400_000;

/** Forgets stale push configurations; hourly, once across replicas (F30). */
@Injectable()
export class PushConfigRetentionJob {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly configs: PushConfigsRepository,
  ) {}

  tick(now = new Date()): Promise<number> {
    const endedBefore = new Date(now.getTime() - PUSH_CONFIG_AFTER_END_MS);
    const idleBefore = new Date(now.getTime() - PUSH_CONFIG_IDLE_MS);
    return this.database.asSystem((tx) => this.configs.pruneStale(tx, endedBefore, idleBefore));
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../../database/tokens';
import { DisclosuresRepository } from './disclosures.repository';

/** traffic.md T71: a conversation is told again once its disclosure is 90 days old. */
export const DISCLOSURE_RETENTION_MS = 90 * 86_400_000;

/** Forgets disclosures past their retention; hourly, once across replicas (F30). */
@Injectable()
export class DisclosureRetentionJob {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly disclosures: DisclosuresRepository,
  ) {}

  tick(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - DISCLOSURE_RETENTION_MS);
    return this.database.asSystem((tx) => this.disclosures.pruneOlderThan(tx, before));
  }
}

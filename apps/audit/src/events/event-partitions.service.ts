import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { EventPartitionsRepository } from './event-partitions.repository';
import { addDays, dayOfPartition, dayStart, partitionName } from './partitions';

/** Dropped by retention once empty and in the past. */
export class DailyPartitions {
  private readonly known = new Set<string>();

  constructor(
    private readonly database: Database,
    private readonly repository: EventPartitionsRepository,
    private readonly table: string,
  ) {}

  async ensureDays(days: Date[]): Promise<void> {
    // Retention may drop a past partition on any replica (dropEmptyBefore): only days from
    // yesterday on, which it never drops, are taken from this replica's memory.
    const kept = addDays(dayStart(new Date()), -1);
    for (const day of days) {
      const name = partitionName(dayStart(day), this.table);
      if (!this.known.has(name) || dayStart(day) < kept) {
        await this.create(day);
        this.known.add(name);
      }
    }
  }

  async createAhead(daysAhead: number, now = new Date()): Promise<void> {
    const today = dayStart(now);
    const days = Array.from({ length: daysAhead + 1 }, (_, i) => addDays(today, i));
    await this.ensureDays(days);
  }

  async dropEmptyBefore(before: Date): Promise<string[]> {
    const dropped: string[] = [];
    for (const name of await this.names()) {
      const day = dayOfPartition(name, this.table);
      if (!day || addDays(day, 1) > dayStart(before)) {
        continue;
      }
      const isDropped = await this.database.asSystem((tx) => this.repository.dropIfEmpty(tx, name));
      if (isDropped) {
        this.known.delete(name);
        dropped.push(name);
      }
    }
    return dropped;
  }

  names(): Promise<string[]> {
    return this.database.asSystem((tx) => this.repository.names(tx, this.table));
  }

  private async create(day: Date): Promise<void> {
    const name = partitionName(dayStart(day), this.table);
    try {
      await this.database.asSystem((tx) => this.repository.ensure(tx, this.table, name, day));
    } catch (error) {
      // Another replica created it at the same moment.
      if (!(await this.names()).includes(name)) {
        throw error;
      }
    }
  }
}

/** Daily partitions of `audit.events` (A13). */
@Injectable()
export class EventPartitionsService extends DailyPartitions {
  constructor(
    @Inject(AUDIT_DATABASE) database: Database,
    @Inject(EventPartitionsRepository) repository: EventPartitionsRepository,
  ) {
    super(database, repository, 'events');
  }
}

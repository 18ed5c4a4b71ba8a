import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { TrafficEvent, countersOf } from './rollup-counters';
import { RollupsRepository, toHourRows } from './rollups.repository';

/** Maintains the per-minute counters and sightings as traffic events are ingested (issue 7, 3). */
@Injectable()
export class RollupsService {
  constructor(private readonly rollups: RollupsRepository) {}

  async record(tx: Tx, event: TrafficEvent): Promise<void> {
    const { counts, sightings } = countersOf(event);
    await this.rollups.addCounts(tx, event.tenantId, toHourRows(counts));
    await this.rollups.addSightings(tx, event.tenantId, sightings);
  }
}

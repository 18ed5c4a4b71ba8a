import { Inject, Injectable } from '@nestjs/common';
import { EventEnvelope } from '@agp/contracts';
import { Tx } from '@agp/database';

import {
  RollupCount,
  Sighting,
  TRAFFIC_EVENT_TYPES,
  TrafficEvent,
  TrafficEventType,
  countersOf,
} from '../engine/rollup-counters';
import { RollupsRepository, toHourRows } from './rollups.repository';

/** Maintains the per-minute counters and sightings as traffic events are ingested (issue 7, 3). */
@Injectable()
export class RollupsService {
  constructor(@Inject(RollupsRepository) private readonly rollups: RollupsRepository) {}

  // The traffic events an ingest transaction stored (each exactly once, M16), counted in that
  // transaction: every tenant's counters folded into one upsert.
  async recordIngested(tx: Tx, envelopes: EventEnvelope[]): Promise<void> {
    const byTenant = new Map<string, { counts: RollupCount[]; sightings: Sighting[] }>();
    for (const envelope of envelopes) {
      if (!(TRAFFIC_EVENT_TYPES as readonly string[]).includes(envelope.type)) {
        continue;
      }
      const { counts, sightings } = countersOf(
        envelope as TrafficEvent & { type: TrafficEventType },
      );
      const entry = byTenant.get(envelope.tenantId) ?? { counts: [], sightings: [] };
      entry.counts.push(...counts);
      entry.sightings.push(...sightings);
      byTenant.set(envelope.tenantId, entry);
    }
    for (const [tenantId, { counts, sightings }] of byTenant) {
      await this.rollups.addCounts(tx, tenantId, toHourRows(counts));
      await this.rollups.addSightings(tx, tenantId, sightings);
    }
  }
}

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
  // transaction: every tenant's counters and sightings in one statement (A55).
  async recordIngested(tx: Tx, envelopes: EventEnvelope[]): Promise<void> {
    const byTenant = new Map<string, { counts: RollupCount[]; sightings: Sighting[] }>();
    for (const envelope of envelopes) {
      if (!(TRAFFIC_EVENT_TYPES as readonly string[]).includes(envelope.type)) {
        continue;
      }
      const { counts, sightings } = countersOf(
        envelope as TrafficEvent & { type: TrafficEventType },
      );
      const tenantId = envelope.tenantId.toLowerCase();
      const entry = byTenant.get(tenantId) ?? { counts: [], sightings: [] };
      entry.counts.push(...counts);
      entry.sightings.push(...sightings);
      byTenant.set(tenantId, entry);
    }
    await this.rollups.add(
      tx,
      [...byTenant].map(([tenantId, { counts, sightings }]) => ({
        tenantId,
        hourRows: toHourRows(counts),
        sightings,
      })),
    );
  }
}

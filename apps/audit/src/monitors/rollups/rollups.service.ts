import { Inject, Injectable } from '@nestjs/common';
import { EventEnvelope } from '@agp/contracts';
import { Database, Tx } from '@agp/database';
import { assertValidEnvelope } from '@agp/messaging';

import { AUDIT_DATABASE } from '../../database/tokens';
import {
  RollupCount,
  Sighting,
  TRAFFIC_EVENT_TYPES,
  TrafficEvent,
  TrafficEventType,
  countersOf,
} from './rollup-counters';
import { RollupsRepository, toHourRows } from './rollups.repository';

/** Maintains the per-minute counters and sightings as traffic events are ingested (issue 7, 3). */
@Injectable()
export class RollupsService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    private readonly rollups: RollupsRepository,
  ) {}

  /** One event, in the consumer's tenant transaction (the inbox row is already written). */
  async record(tx: Tx, event: TrafficEvent): Promise<void> {
    const { counts, sightings } = countersOf(event);
    await this.rollups.addCounts(tx, event.tenantId, toHourRows(counts));
    await this.rollups.addSightings(tx, event.tenantId, sightings);
  }

  /**
   * A batch in one transaction: the ids not yet in the inbox are recorded and counted, every
   * tenant's counters folded into one upsert. An invalid envelope fails the batch, which the
   * consumer then retries one by one and parks the culprit (D5).
   */
  async recordBatch(consumer: string, envelopes: EventEnvelope[]): Promise<void> {
    const traffic = envelopes.filter((e) =>
      (TRAFFIC_EVENT_TYPES as readonly string[]).includes(e.type),
    );
    traffic.forEach((envelope) => assertValidEnvelope(envelope));
    if (traffic.length === 0) {
      return;
    }
    await this.database.asSystem(async (tx) => {
      const fresh = await this.rollups.claimInbox(
        tx,
        consumer,
        traffic.map((e) => e.id),
      );
      const byTenant = new Map<string, { counts: RollupCount[]; sightings: Sighting[] }>();
      for (const envelope of traffic.filter((e) => fresh.has(e.id))) {
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
    });
  }
}

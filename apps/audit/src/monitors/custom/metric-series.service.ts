import { Inject, Injectable } from '@nestjs/common';
import { AuditableEventData, EventEnvelope } from '@agp/contracts';
import { Tx } from '@agp/database';

import { detailsOf } from '../../ingest/audit-event.mapper';
import { TRAFFIC_EVENT_TYPES } from '../engine/rollup-counters';
import { StoredTraffic, seriesCellsOf } from '../engine/custom/metric-series';
import { MetricSeriesRepository } from './metric-series.repository';

/** An envelope as the ingest stores it (`toAuditEvent`): the fields M21's metrics read. */
export function storedTrafficOf(envelope: EventEnvelope): StoredTraffic {
  const data = envelope.data as AuditableEventData;
  return {
    tenantId: envelope.tenantId,
    eventType: envelope.type,
    occurredAt: envelope.occurredAt,
    protocol: data.protocol ?? null,
    action: data.action ?? null,
    parties: [data.actor, data.source, data.sink].map((party) =>
      party ? { type: party.type, id: party.id ?? null } : null,
    ),
    policyIds: (data.policyIds ?? []).map((id) => id.toLowerCase()),
    details: detailsOf(data as unknown as Record<string, unknown>),
  };
}

/** Keeps the custom monitors' per-minute cells (M29) as traffic events are ingested. */
@Injectable()
export class MetricSeriesService {
  constructor(@Inject(MetricSeriesRepository) private readonly series: MetricSeriesRepository) {}

  // The traffic events an ingest transaction stored (each exactly once, M16), added in that
  // transaction: one upsert per tenant.
  async recordIngested(tx: Tx, envelopes: readonly EventEnvelope[]): Promise<void> {
    const byTenant = new Map<string, StoredTraffic[]>();
    for (const envelope of envelopes) {
      if (!(TRAFFIC_EVENT_TYPES as readonly string[]).includes(envelope.type)) {
        continue;
      }
      const events = byTenant.get(envelope.tenantId) ?? [];
      events.push(storedTrafficOf(envelope));
      byTenant.set(envelope.tenantId, events);
    }
    for (const [tenantId, events] of byTenant) {
      await this.series.add(tx, tenantId, seriesCellsOf(events));
    }
  }
}

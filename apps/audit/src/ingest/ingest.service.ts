import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { EventEnvelope, isAuditEventType } from '@agp/contracts';
import { PoisonMessageError, assertValidEnvelope } from '@agp/messaging';

import { AUDIT_DATABASE } from '../database/tokens';
import { AuditEvent, ChainedEvent } from '../events/audit-event.types';
import { EventPartitionsService } from '../events/event-partitions.service';
import { dayStart } from '../events/partitions';
import { chainHash } from '../integrity/chain-hash';
import { toAuditEvent } from './audit-event.mapper';
import { ChainHead, IngestRepository, headKey } from './ingest.repository';
import { AuditEnvelope, IngestedEvents } from './ingested-events';

/** Stores a batch of audit events in one transaction (issue 5, item 2, M16). */
@Injectable()
export class IngestService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(IngestRepository) private readonly repository: IngestRepository,
    @Inject(EventPartitionsService) private readonly partitions: EventPartitionsService,
    @Inject(IngestedEvents) private readonly ingested: IngestedEvents,
  ) {}

  /** Returns how many events were new. Throws PoisonMessageError when one can never be stored. */
  async ingest(envelopes: EventEnvelope[]): Promise<number> {
    const batch = this.validated(envelopes);
    if (batch.length === 0) {
      return 0;
    }
    const times = batch.map((e) => new Date(e.occurredAt).getTime());
    await this.partitions.ensureDays(
      [...new Set(times.map((t) => dayStart(new Date(t)).getTime()))].map((t) => new Date(t)),
    );
    const from = new Date(Math.min(...times)).toISOString();
    const to = new Date(Math.max(...times)).toISOString();
    await this.repository.learnSession();
    return this.database.asSystem(async (tx) => {
      const recordedAt = new Date();
      const capturing = await this.repository.tenantsCapturingContent(tx, [
        ...new Set(batch.map((e) => e.tenantId)),
      ]);
      const events = batch.map((e) =>
        toAuditEvent(e, recordedAt, capturing.has(e.tenantId.toLowerCase())),
      );
      const keys = [...new Map(events.map((e) => [headKey(e.tenantId, e.family), e])).values()];
      const heads = await this.repository.lockHeads(tx, keys);
      const existing = await this.repository.existingIds(
        tx,
        events.map((e) => e.id),
        from,
        to,
      );
      const fresh = events.filter((e) => !existing.has(e.id));
      if (fresh.length === 0) {
        return 0;
      }
      const chained = fresh.map((event) => this.append(heads, event));
      await this.repository.insert(tx, chained);
      await this.repository.saveHeads(tx, [...heads.values()]);
      const isFresh = new Set(fresh.map((e) => e.id));
      await this.ingested.notify(
        tx,
        batch.filter((e) => isFresh.has(e.id.toLowerCase())),
      );
      return chained.length;
    });
  }

  private append(heads: Map<string, ChainHead>, event: Omit<AuditEvent, 'seq'>): ChainedEvent {
    const head = heads.get(headKey(event.tenantId, event.family));
    if (!head) {
      throw new Error(`chain head ${headKey(event.tenantId, event.family)} was not locked`);
    }
    const chained = { ...event, seq: head.seq + 1 } as ChainedEvent;
    chained.hash = chainHash(head.hash, chained);
    head.seq = chained.seq;
    head.hash = chained.hash;
    return chained;
  }

  /** Valid audit events, each id once; other types are not the audit trail's and are skipped. */
  private validated(envelopes: EventEnvelope[]): AuditEnvelope[] {
    const seen = new Set<string>();
    const batch: AuditEnvelope[] = [];
    for (const envelope of envelopes) {
      if (!isAuditEventType(String(envelope.type))) {
        continue;
      }
      assertValidEnvelope(envelope);
      if (Number.isNaN(new Date(envelope.occurredAt).getTime())) {
        throw new PoisonMessageError('invalid event: occurredAt');
      }
      const id = envelope.id.toLowerCase();
      if (!seen.has(id)) {
        seen.add(id);
        batch.push(envelope as AuditEnvelope);
      }
    }
    return batch;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { EventEnvelope, isAuditEventType } from '@agp/contracts';
import { PoisonMessageError, assertValidEnvelope } from '@agp/messaging';

import { AUDIT_DATABASE } from '../database/tokens';
import { AuditEvent, ChainedEvent } from '../events/audit-event.types';
import { EventPartitionsService } from '../events/event-partitions.service';
import { familyOf } from '../events/event-families';
import { dayStart } from '../events/partitions';
import { chainHash } from '../integrity/chain-hash';
import { toAuditEvent } from './audit-event.mapper';
import { ChainHead, IngestRepository, headKey } from './ingest.repository';
import { AuditEnvelope, IngestedEvents, Notify } from './ingested-events';
import { inSystemTransaction } from './system-transaction';

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
    const window = {
      from: new Date(Math.min(...times)).toISOString(),
      to: new Date(Math.max(...times)).toISOString(),
    };
    await this.repository.learnSession();
    return this.ingested.withObservers((notify) =>
      inSystemTransaction(this.database, (tx) => this.store(tx, batch, window, notify)),
    );
  }

  /** The batch's events that are new, chained and stored; then their observers (M16). */
  private async store(
    tx: Tx,
    batch: AuditEnvelope[],
    window: { from: string; to: string },
    notify: Notify,
  ): Promise<number> {
    const recordedAt = new Date();
    const keys = new Map(
      batch.map((e) => {
        const key = { tenantId: e.tenantId.toLowerCase(), family: familyOf(e.type) };
        return [headKey(key.tenantId, key.family), key];
      }),
    );
    const { heads, capturing, existing } = await this.repository.openBatch(
      tx,
      [...keys.values()],
      batch.map((e) => e.id.toLowerCase()),
      window,
    );
    const fresh = batch.filter((e) => !existing.has(e.id.toLowerCase()));
    if (fresh.length === 0) {
      return 0;
    }
    const chained = fresh.map((e) =>
      this.append(heads, toAuditEvent(e, recordedAt, capturing.has(e.tenantId.toLowerCase()))),
    );
    await this.repository.insert(tx, chained, [...heads.values()]);
    await notify(tx, fresh);
    return chained.length;
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

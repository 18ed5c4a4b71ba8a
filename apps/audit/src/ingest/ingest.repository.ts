import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx, queryNamed } from '@agp/database';
import { PoisonMessageError } from '@agp/messaging';
import { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

import { AUDIT_DATABASE } from '../database/tokens';
import { ChainedEvent } from '../events/audit-event.types';
import { EventFamily } from '../events/event-families';
import { COPY_COLUMNS, copyRow, isWellFormed } from './copy-rows';

export const COPY_MIN_BATCH = 32;

export interface ChainHead {
  tenantId: string;
  family: EventFamily;
  seq: number;
  hash: Buffer;
}

/** What a batch's first statement learns (A52). */
export interface OpenedBatch {
  /** The batch's chain heads, locked until the transaction ends, by `headKey`. */
  heads: Map<string, ChainHead>;
  /** The batch's tenants that capture content. */
  capturing: Set<string>;
  /** The batch's ids that are already stored. */
  existing: Set<string>;
}

interface OpenedBatchRow {
  kind: 'head' | 'capturing' | 'stored';
  id: string;
  family: EventFamily | null;
  seq: string | null;
  hash: Buffer | null;
  unmoved: boolean | null;
}

export function headKey(tenantId: string, family: string): string {
  return `${tenantId}/${family}`;
}

/** It works across tenants (one batch holds many), so it runs in the system scope. */
@Injectable()
export class IngestRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {
    this.schema = database.schema;
  }

  /** Whether the database is the embedded PGlite (A18: it is written with INSERT, not COPY). */
  private isEmbedded = false;

  /** Called before the ingest's transaction, never inside it. */
  async learnSession(): Promise<void> {
    this.isEmbedded = await this.database.isMultiplexedSession();
  }

  /**
   * A52: one statement where there were four: which tenants capture content, the chain heads
   * created where missing and locked (an upsert that changes nothing locks the row and returns its
   * latest version, also one committed after this statement began), and which ids are stored.
   * The ids are read in the statement's snapshot, taken before a head's lock may have been waited
   * for: they are only sure when no head moved meanwhile (every stored event moved its head, A1),
   * so otherwise they are read again, under the locks, by a statement of their own.
   */
  async openBatch(
    tx: Tx,
    keys: Array<{ tenantId: string; family: EventFamily }>,
    ids: string[],
    { from, to }: { from: string; to: string },
  ): Promise<OpenedBatch> {
    // By code unit, not localeCompare: every replica must lock the heads in the same order.
    const sorted = [...keys].sort((a, b) =>
      byCodeUnit(headKey(a.tenantId, a.family), headKey(b.tenantId, b.family)),
    );
    const rows: OpenedBatchRow[] = await queryNamed(
      tx,
      `WITH k AS (SELECT t, f FROM unnest($1::uuid[], $2::text[]) AS k(t, f)),
       seen AS (
         SELECT h.tenant_id, h.family, h.seq FROM ${this.schema}.chain_heads h
         JOIN k ON h.tenant_id = k.t AND h.family = k.f
       ),
       locked AS (
         INSERT INTO ${this.schema}.chain_heads AS h (tenant_id, family, seq, hash)
         SELECT t, f, 0, '\\x${'00'.repeat(32)}'::bytea FROM k
         ON CONFLICT (tenant_id, family) DO UPDATE SET seq = h.seq
         RETURNING h.tenant_id, h.family, h.seq, h.hash
       )
       SELECT 'head' AS kind, l.tenant_id::text AS id, l.family, l.seq, l.hash,
              l.seq = coalesce(s.seq, 0) AS unmoved
       FROM locked l LEFT JOIN seen s ON s.tenant_id = l.tenant_id AND s.family = l.family
       UNION ALL
       SELECT 'capturing', tenant_id::text, NULL, NULL, NULL, NULL
       FROM ${this.schema}.retention_policies WHERE tenant_id = ANY($3::uuid[]) AND capture_content
       UNION ALL
       SELECT 'stored', id::text, NULL, NULL, NULL, NULL
       FROM ${this.schema}.events WHERE id = ANY($4::uuid[]) AND occurred_at BETWEEN $5 AND $6`,
      [
        sorted.map((k) => k.tenantId),
        sorted.map((k) => k.family),
        [...new Set(keys.map((k) => k.tenantId))],
        ids,
        from,
        to,
      ],
    );
    const opened = openedBatchOf(rows);
    if (!opened.isSnapshotSure) {
      opened.existing = await this.existingIds(tx, ids, from, to);
    }
    return opened;
  }

  private async existingIds(tx: Tx, ids: string[], from: string, to: string): Promise<Set<string>> {
    const rows: Array<{ id: string }> = await queryNamed(
      tx,
      `SELECT id FROM ${this.schema}.events WHERE id = ANY($1::uuid[]) AND occurred_at BETWEEN $2 AND $3`,
      [ids, from, to],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** Stores chained events (A1) and the heads they moved. */
  async insert(tx: Tx, events: ChainedEvent[], heads: ChainHead[]): Promise<void> {
    const rows = events.map(copyRow);
    const malformed = events.find((_, i) => !isWellFormed(rows[i] ?? ''));
    if (malformed) {
      throw new PoisonMessageError(
        `invalid event ${malformed.id}: text with a lone UTF-16 surrogate`,
      );
    }
    // The embedded PGlite takes batches too since the in-process bus hands over a drain at once
    // (F32), but its socket carries no COPY.
    if (events.length < COPY_MIN_BATCH || this.isEmbedded) {
      return this.insertRows(tx, events, heads);
    }
    const client = (tx.queryRunner as unknown as { databaseConnection: PoolClient })
      .databaseConnection;
    await pipeline(
      Readable.from([`${rows.join('\n')}\n`]),
      client.query(copyFrom(`COPY ${this.schema}.events (${COPY_COLUMNS.join(', ')}) FROM STDIN`)),
    );
    await queryNamed(tx, `${this.saveHeadsText} SELECT 1`, headsParameters(heads));
  }

  /** The heads' UPDATE, as a data-modifying CTE (A53): with the INSERT, one statement. */
  private get saveHeadsText(): string {
    return `WITH saved_heads AS (
       UPDATE ${this.schema}.chain_heads h SET seq = u.seq, hash = decode(u.hash, 'hex'), updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::text[]) AS u(tenant_id, family, seq, hash)
       WHERE h.tenant_id = u.tenant_id AND h.family = u.family
     )`;
  }

  private async insertRows(tx: Tx, events: ChainedEvent[], heads: ChainHead[]): Promise<void> {
    const rows = events.map((e) => ({
      id: e.id,
      tenant_id: e.tenantId,
      family: e.family,
      seq: e.seq,
      occurred_at: e.occurredAt,
      recorded_at: e.recordedAt,
      event_type: e.eventType,
      protocol: e.protocol,
      action: e.action,
      actor_type: e.actor?.type ?? null,
      actor_id: e.actor?.id ?? null,
      actor_label: e.actor?.label ?? null,
      source_type: e.source?.type ?? null,
      source_id: e.source?.id ?? null,
      source_name: e.source?.name ?? null,
      sink_type: e.sink?.type ?? null,
      sink_id: e.sink?.id ?? null,
      sink_name: e.sink?.name ?? null,
      policy_ids: e.policyIds,
      decision: e.decision,
      correlation_id: e.correlationId,
      trace_id: e.traceId,
      span_id: e.spanId,
      summary: e.summary,
      details: e.details,
      content: e.content,
      content_digest: e.contentDigest,
      hash: e.hash.toString('hex'),
    }));
    await queryNamed(
      tx,
      `${this.saveHeadsText}
       INSERT INTO ${this.schema}.events (id, tenant_id, family, seq, occurred_at, recorded_at, event_type, protocol,
         action, actor_type, actor_id, actor_label, source_type, source_id, source_name, sink_type, sink_id, sink_name,
         policy_ids, decision, correlation_id, trace_id, span_id, summary, details, content, content_digest, hash)
       SELECT id, tenant_id, family, seq, occurred_at, recorded_at, event_type, protocol, action, actor_type, actor_id,
         actor_label, source_type, source_id, source_name, sink_type, sink_id, sink_name, coalesce(policy_ids, '{}'),
         decision, correlation_id, trace_id, span_id, summary, details, content, content_digest, decode(hash, 'hex')
       FROM jsonb_to_recordset($5::jsonb) AS r(id uuid, tenant_id uuid, family text, seq bigint, occurred_at timestamptz,
         recorded_at timestamptz, event_type text, protocol text, action text, actor_type text, actor_id text,
         actor_label text, source_type text, source_id text, source_name text, sink_type text, sink_id text,
         sink_name text, policy_ids uuid[], decision jsonb, correlation_id text, trace_id text, span_id text,
         summary text, details jsonb, content text, content_digest text, hash text)`,
      [...headsParameters(heads), JSON.stringify(rows)],
    );
  }
}

function headsParameters(heads: ChainHead[]): unknown[] {
  return [
    heads.map((h) => h.tenantId),
    heads.map((h) => h.family),
    heads.map((h) => h.seq),
    heads.map((h) => h.hash.toString('hex')),
  ];
}

function openedBatchOf(rows: OpenedBatchRow[]): OpenedBatch & { isSnapshotSure: boolean } {
  const opened = {
    heads: new Map<string, ChainHead>(),
    capturing: new Set<string>(),
    existing: new Set<string>(),
    isSnapshotSure: true,
  };
  for (const row of rows) {
    if (row.kind === 'head' && row.family && row.seq !== null && row.hash) {
      const head = { tenantId: row.id, family: row.family, seq: Number(row.seq), hash: row.hash };
      opened.heads.set(headKey(head.tenantId, head.family), head);
      opened.isSnapshotSure &&= row.unmoved === true;
    } else if (row.kind === 'capturing') {
      opened.capturing.add(row.id);
    } else if (row.kind === 'stored') {
      opened.existing.add(row.id);
    }
  }
  return opened;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

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

  async tenantsCapturingContent(tx: Tx, tenantIds: string[]): Promise<Set<string>> {
    const rows: Array<{ tenant_id: string }> = await queryNamed(
      tx,
      `SELECT tenant_id FROM ${this.schema}.retention_policies WHERE tenant_id = ANY($1::uuid[]) AND capture_content`,
      [tenantIds],
    );
    return new Set(rows.map((row) => row.tenant_id));
  }

  /** Holding them makes "which ids are new" and the sequence numbers safe. */
  async lockHeads(
    tx: Tx,
    keys: Array<{ tenantId: string; family: EventFamily }>,
  ): Promise<Map<string, ChainHead>> {
    const sorted = [...keys].sort((a, b) =>
      headKey(a.tenantId, a.family).localeCompare(headKey(b.tenantId, b.family)),
    );
    const tenants = sorted.map((k) => k.tenantId);
    const families = sorted.map((k) => k.family);
    await queryNamed(
      tx,
      `INSERT INTO ${this.schema}.chain_heads (tenant_id, family, seq, hash)
       SELECT t, f, 0, '\\x${'00'.repeat(32)}'::bytea FROM unnest($1::uuid[], $2::text[]) AS k(t, f)
       ON CONFLICT DO NOTHING`,
      [tenants, families],
    );
    const rows: Array<{ tenant_id: string; family: EventFamily; seq: string; hash: Buffer }> =
      await queryNamed(
        tx,
        `SELECT h.tenant_id, h.family, h.seq, h.hash FROM ${this.schema}.chain_heads h
       JOIN unnest($1::uuid[], $2::text[]) AS k(t, f) ON h.tenant_id = k.t AND h.family = k.f
       ORDER BY h.tenant_id, h.family FOR UPDATE OF h`,
        [tenants, families],
      );
    return new Map(
      rows.map((row) => [
        headKey(row.tenant_id, row.family),
        { tenantId: row.tenant_id, family: row.family, seq: Number(row.seq), hash: row.hash },
      ]),
    );
  }

  async existingIds(tx: Tx, ids: string[], from: string, to: string): Promise<Set<string>> {
    const rows: Array<{ id: string }> = await queryNamed(
      tx,
      `SELECT id FROM ${this.schema}.events WHERE id = ANY($1::uuid[]) AND occurred_at BETWEEN $2 AND $3`,
      [ids, from, to],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** Stores chained events (A1). */
  async insert(tx: Tx, events: ChainedEvent[]): Promise<void> {
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
      return this.insertRows(tx, events);
    }
    const client = (tx.queryRunner as unknown as { databaseConnection: PoolClient })
      .databaseConnection;
    await pipeline(
      Readable.from([`${rows.join('\n')}\n`]),
      client.query(copyFrom(`COPY ${this.schema}.events (${COPY_COLUMNS.join(', ')}) FROM STDIN`)),
    );
  }

  private async insertRows(tx: Tx, events: ChainedEvent[]): Promise<void> {
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
      `INSERT INTO ${this.schema}.events (id, tenant_id, family, seq, occurred_at, recorded_at, event_type, protocol,
         action, actor_type, actor_id, actor_label, source_type, source_id, source_name, sink_type, sink_id, sink_name,
         policy_ids, decision, correlation_id, trace_id, span_id, summary, details, content, content_digest, hash)
       SELECT id, tenant_id, family, seq, occurred_at, recorded_at, event_type, protocol, action, actor_type, actor_id,
         actor_label, source_type, source_id, source_name, sink_type, sink_id, sink_name, coalesce(policy_ids, '{}'),
         decision, correlation_id, trace_id, span_id, summary, details, content, content_digest, decode(hash, 'hex')
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, tenant_id uuid, family text, seq bigint, occurred_at timestamptz,
         recorded_at timestamptz, event_type text, protocol text, action text, actor_type text, actor_id text,
         actor_label text, source_type text, source_id text, source_name text, sink_type text, sink_id text,
         sink_name text, policy_ids uuid[], decision jsonb, correlation_id text, trace_id text, span_id text,
         summary text, details jsonb, content text, content_digest text, hash text)`,
      [JSON.stringify(rows)],
    );
  }

  async saveHeads(tx: Tx, heads: ChainHead[]): Promise<void> {
    await queryNamed(
      tx,
      `UPDATE ${this.schema}.chain_heads h SET seq = u.seq, hash = decode(u.hash, 'hex'), updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::text[]) AS u(tenant_id, family, seq, hash)
       WHERE h.tenant_id = u.tenant_id AND h.family = u.family`,
      [
        heads.map((h) => h.tenantId),
        heads.map((h) => h.family),
        heads.map((h) => h.seq),
        heads.map((h) => h.hash.toString('hex')),
      ],
    );
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { EVENT_COLUMNS, EventRow, eventOfRow } from '../events/audit-event.row';
import { ChainedEvent } from '../events/audit-event.types';
import { EventFamily } from '../events/event-families';

export interface ChainPoint {
  family: EventFamily;
  seq: number;
  hash: Buffer;
}

/** Reads for verification, each scoped by the tenant id (and row-level security). */
@Injectable()
export class IntegrityRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {
    this.schema = database.schema;
  }

  inTenant<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.database.inTenant(tenantId, work);
  }

  async heads(tx: Tx, tenantId: string): Promise<ChainPoint[]> {
    return this.points(tx, 'chain_heads', tenantId);
  }

  async anchors(tx: Tx, tenantId: string): Promise<ChainPoint[]> {
    return this.points(tx, 'chain_anchors', tenantId);
  }

  /** Lowest and highest sequence recorded in [from, to) of one chain. */
  async seqBounds(tx: Tx, tenantId: string, family: EventFamily, from?: Date, to?: Date): Promise<{ min: number; max: number } | undefined> {
    const [row]: Array<{ min: string | null; max: string | null }> = await tx.query(
      `SELECT min(seq) AS min, max(seq) AS max FROM ${this.schema}.events
       WHERE tenant_id = $1 AND family = $2 AND ($3::timestamptz IS NULL OR recorded_at >= $3)
         AND ($4::timestamptz IS NULL OR recorded_at < $4)`,
      [tenantId, family, from ?? null, to ?? null],
    );
    return row?.min === null || row?.min === undefined ? undefined : { min: Number(row.min), max: Number(row.max) };
  }

  async hashAt(tx: Tx, tenantId: string, family: EventFamily, seq: number): Promise<Buffer | undefined> {
    const rows: Array<{ hash: Buffer }> = await tx.query(
      `SELECT hash FROM ${this.schema}.events WHERE tenant_id = $1 AND family = $2 AND seq = $3 ORDER BY id LIMIT 1`,
      [tenantId, family, seq],
    );
    return rows[0]?.hash;
  }

  /** One page of a chain in (seq, id) order: a duplicated sequence number still pages correctly. */
  async page(
    tx: Tx,
    tenantId: string,
    family: EventFamily,
    after: { seq: number; id: string },
    maxSeq: number,
    limit: number,
  ): Promise<ChainedEvent[]> {
    const rows: EventRow[] = await tx.query(
      `SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events
       WHERE tenant_id = $1 AND family = $2 AND (seq, id) > ($3, $4::uuid) AND seq <= $5
       ORDER BY seq, id LIMIT $6`,
      [tenantId, family, after.seq, after.id, maxSeq, limit],
    );
    return rows.map(eventOfRow);
  }

  private async points(tx: Tx, table: string, tenantId: string): Promise<ChainPoint[]> {
    const rows: Array<{ family: EventFamily; seq: string; hash: Buffer }> = await tx.query(
      `SELECT family, seq, hash FROM ${this.schema}.${table} WHERE tenant_id = $1 ORDER BY family`,
      [tenantId],
    );
    return rows.map((row) => ({ family: row.family, seq: Number(row.seq), hash: row.hash }));
  }
}

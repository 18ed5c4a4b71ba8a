import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';

import { AUDIT_DATABASE } from '../database/tokens';
import { EVENT_COLUMNS } from '../events/audit-event.row';
import { EventFamily } from '../events/event-families';
import { CopyColumn } from './chain-segment';

export interface ChainPoint {
  family: EventFamily;
  seq: number;
  hash: Buffer;
}

/** Reads for verification, each scoped by the tenant id (and row-level security). */
@Injectable()
export class IntegrityRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  async heads(tx: Tx, tenantId: string): Promise<ChainPoint[]> {
    return this.points(tx, 'chain_heads', tenantId);
  }

  async anchors(tx: Tx, tenantId: string): Promise<ChainPoint[]> {
    return this.points(tx, 'chain_anchors', tenantId);
  }

  async seqBounds(
    tx: Tx,
    tenantId: string,
    family: EventFamily,
    from?: Date,
    to?: Date,
  ): Promise<{ min: number; max: number } | undefined> {
    const [row]: Array<{ min: string | null; max: string | null }> = await tx.query(
      `SELECT min(seq) AS min, max(seq) AS max FROM ${this.schema}.events
       WHERE tenant_id = $1 AND family = $2 AND ($3::timestamptz IS NULL OR recorded_at >= $3)
         AND ($4::timestamptz IS NULL OR recorded_at < $4)`,
      [tenantId, family, from ?? null, to ?? null],
    );
    return row?.min === null || row?.min === undefined
      ? undefined
      : { min: Number(row.min), max: Number(row.max) };
  }

  async hashAt(
    tx: Tx,
    tenantId: string,
    family: EventFamily,
    seq: number,
  ): Promise<Buffer | undefined> {
    const rows: Array<{ hash: Buffer }> = await tx.query(
      `SELECT hash FROM ${this.schema}.events WHERE tenant_id = $1 AND family = $2 AND seq = $3 ORDER BY id LIMIT 1`,
      [tenantId, family, seq],
    );
    return rows[0]?.hash;
  }

  /** The columns `chainRows` writes, named and typed as a query of `EVENT_COLUMNS` returns them. */
  async chainColumns(tx: Tx): Promise<CopyColumn[]> {
    const result = await (
      await this.clientOf(tx)
    ).query(`SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events LIMIT 0`);
    return result.fields.map((field) => ({ name: field.name, typeId: field.dataTypeID }));
  }

  /** The stream must be read to its end before the transaction's next query (A14). */
  async chainRows(
    tx: Tx,
    tenantId: string,
    family: EventFamily,
    afterSeq: number,
    maxSeq: number,
  ): Promise<Readable> {
    const client = await this.clientOf(tx);
    const literal = (value: string | number): string => client.escapeLiteral(String(value));
    return client.query(
      copyTo(
        `COPY (SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events WHERE tenant_id = ${literal(tenantId)} AND family = ${literal(family)}
           AND seq > ${literal(afterSeq)} AND seq <= ${literal(maxSeq)} ORDER BY seq, id) TO STDOUT`,
      ),
    );
  }

  /** The connection under the transaction: COPY and column types are the driver's, not TypeORM's. */
  private async clientOf(tx: Tx): Promise<PoolClient> {
    return (tx.queryRunner as unknown as { connect(): Promise<PoolClient> }).connect();
  }

  private async points(tx: Tx, table: string, tenantId: string): Promise<ChainPoint[]> {
    const rows: Array<{ family: EventFamily; seq: string; hash: Buffer }> = await tx.query(
      `SELECT family, seq, hash FROM ${this.schema}.${table} WHERE tenant_id = $1 ORDER BY family`,
      [tenantId],
    );
    return rows.map((row) => ({ family: row.family, seq: Number(row.seq), hash: row.hash }));
  }
}

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

import { AUDIT_DATABASE } from '../../database/tokens';
import { field as copyField } from '../../ingest/copy-rows';
import { COPY_MIN_BATCH } from '../../ingest/ingest.repository';
import { Column, ColumnValue, Sender } from './telemetry-columns';

/** Batched as the audit ingest is (A1, A24, A22). */
@Injectable()
export class TelemetryStoreRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {
    this.schema = database.schema;
  }

  async write<T>(
    tx: Tx,
    table: string,
    columns: Array<Column<T>>,
    items: T[],
    sender: Sender,
  ): Promise<void> {
    const receivedAt = new Date().toISOString();
    const names = columns.map((c) => c.name).join(', ');
    if (items.length < COPY_MIN_BATCH || (await this.database.isMultiplexedSession())) {
      const rows = items.map((item) =>
        Object.fromEntries(columns.map((c) => [c.name, c.value(item, sender, receivedAt)])),
      );
      const types = columns.map((c) => `${c.name} ${c.type}`).join(', ');
      await tx.query(
        `INSERT INTO ${this.schema}.${table} (${names})
         SELECT ${names} FROM jsonb_to_recordset($1::jsonb) AS r(${types})`,
        [JSON.stringify(rows)],
      );
      return;
    }
    const lines = items.map((item) =>
      columns.map((c) => copyValue(c.type, c.value(item, sender, receivedAt))).join('\t'),
    );
    const client = (tx.queryRunner as unknown as { databaseConnection: PoolClient })
      .databaseConnection;
    await pipeline(
      Readable.from([`${lines.join('\n')}\n`]),
      client.query(copyFrom(`COPY ${this.schema}.${table} (${names}) FROM STDIN`)),
    );
  }
}

function copyValue(type: string, value: ColumnValue): string {
  if (type === 'jsonb') {
    return value === null ? copyField(null) : copyField(JSON.stringify(value));
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return copyField(String(value));
  }
  return copyField(null);
}

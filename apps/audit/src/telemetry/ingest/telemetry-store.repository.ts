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
    const client = (tx.queryRunner as unknown as { databaseConnection: PoolClient })
      .databaseConnection;
    const copy = client.query(copyFrom(`COPY ${this.schema}.${table} (${names}) FROM STDIN`));
    await new Promise<void>((resolve, reject) => {
      copy.on('error', reject).on('finish', resolve);
      copy.end(copyText(columns, items, sender, receivedAt));
    });
  }
}

/** The items as COPY's text format, one line each (A1, A41, A47). */
export function copyText<T>(
  columns: Array<Column<T>>,
  items: T[],
  sender: Sender,
  receivedAt: string,
): string {
  // An export's items share their resource and scope objects: each is written as JSON once (A41).
  const json = new Map<object, string>();
  let text = '';
  for (const item of items) {
    let line = '';
    for (let i = 0; i < columns.length; i += 1) {
      const column = columns[i];
      const value = column.value(item, sender, receivedAt);
      // A47: ids, numbers and times need no escaping, nor a test for it.
      const field =
        column.isPlain && typeof value !== 'object'
          ? String(value)
          : copyValue(column.type, value, json);
      line = i === 0 ? field : `${line}\t${field}`;
    }
    text += `${line}\n`;
  }
  return text;
}

function copyValue(type: string, value: ColumnValue, json: Map<object, string>): string {
  if (type === 'jsonb') {
    if (value === null) {
      return copyField(null);
    }
    if (typeof value !== 'object') {
      return copyField(JSON.stringify(value));
    }
    let text = json.get(value);
    if (text === undefined) {
      text = copyField(JSON.stringify(value));
      json.set(value, text);
    }
    return text;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return copyField(String(value));
  }
  return copyField(null);
}

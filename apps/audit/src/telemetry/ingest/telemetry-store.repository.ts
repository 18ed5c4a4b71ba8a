import { Inject, Injectable } from '@nestjs/common';
import { Database, SYSTEM_SETTING, Tx } from '@agp/database';
import { PoolClient } from 'pg';

import { AUDIT_DATABASE } from '../../database/tokens';
import { field as copyField } from '../../ingest/copy-rows';
import { COPY_MIN_BATCH } from '../../ingest/ingest.repository';
import { copyQuery } from './export-copy';
import { Column, ColumnValue, Sender } from './telemetry-columns';

/** Batched as the audit ingest is (A1, A24, A22). */
@Injectable()
export class TelemetryStoreRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {
    this.schema = database.schema;
  }

  /** Whether `count` items go by `copyExport` (a dedicated session), else by `insert`. */
  async copies(count: number): Promise<boolean> {
    return count >= COPY_MIN_BATCH && !(await this.database.isMultiplexedSession());
  }

  /** The rows as one INSERT in `tx` (a small batch, or PGlite's one shared session). */
  async insert<T>(
    tx: Tx,
    table: string,
    columns: Array<Column<T>>,
    items: T[],
    sender: Sender,
  ): Promise<void> {
    const receivedAt = new Date().toISOString();
    const names = columns.map((c) => c.name).join(', ');
    const rows = items.map((item) =>
      Object.fromEntries(columns.map((c) => [c.name, c.value(item, sender, receivedAt)])),
    );
    const types = columns.map((c) => `${c.name} ${c.type}`).join(', ');
    await tx.query(
      `INSERT INTO ${this.schema}.${table} (${names})
       SELECT ${names} FROM jsonb_to_recordset($1::jsonb) AS r(${types})`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * A49: the export in one transaction of the system scope, sent as one simple query: BEGIN, the
   * scope, the COPY of the rows, `then` (one statement that fails to refuse the export), COMMIT.
   * Two round trips; PostgreSQL refuses COPY FROM where row-level security applies, hence the
   * scope (A1), and every row's tenant is the token's (A22). Resolves with what `then` returned;
   * on an error, the transaction is rolled back and the error thrown.
   */
  async copyExport<T>(
    table: string,
    columns: Array<Column<T>>,
    items: T[],
    sender: Sender,
    then: string,
  ): Promise<string | null | undefined> {
    const names = columns.map((c) => c.name).join(', ');
    const data = copyData(columns, items, sender, new Date().toISOString());
    const runner = this.database.dataSource.createQueryRunner() as unknown as PooledRunner;
    await runner.connect();
    const client = runner.databaseConnection;
    let broken: Error | undefined;
    try {
      const rows = await copyQuery(
        client,
        `BEGIN; SET LOCAL ${SYSTEM_SETTING} TO 'on';
         COPY ${this.schema}.${table} (${names}) FROM STDIN;
         ${then};
         COMMIT`,
        data,
      );
      return rows[0];
    } catch (error) {
      // Whatever failed, nothing of the export stays: the rest of the query was skipped. A
      // session that cannot even roll back leaves the pool.
      await client.query('ROLLBACK').catch((failed: Error) => {
        broken = failed;
      });
      throw error;
    } finally {
      await runner.releasePostgresConnection(broken);
    }
  }
}

/** TypeORM's PostgreSQL query runner, whose connection is a `pg` pool client. */
interface PooledRunner {
  connect(): Promise<unknown>;
  databaseConnection: PoolClient;
  releasePostgresConnection(error?: Error): Promise<void>;
}

/** UTF-8 takes at most three bytes for each UTF-16 unit of a string. */
const MAX_BYTES_PER_UNIT = 3;
/**
 * A48: every row repeats its group's resource and scope, so 4 MiB of OTLP can expand without
 * bound (a large resource, many small spans); past this the export is refused, not built.
 */
export const MAX_COPY_BYTES = 256 * 1024 * 1024;

/** The export's rows would exceed `MAX_COPY_BYTES`. */
export class ExportTooLarge extends Error {
  constructor(maxBytes: number) {
    super(`the export's rows come to more than ${maxBytes} bytes`);
  }
}

/**
 * The items as COPY's text format, one line each, written into one buffer as they are made (A1,
 * A41, A47, A49): no string of the whole export for `pg` to encode again.
 */
export function copyData<T>(
  columns: Array<Column<T>>,
  items: T[],
  sender: Sender,
  receivedAt: string,
  maxBytes = MAX_COPY_BYTES,
): Buffer {
  // An export's items share their resource and scope objects: each is written as JSON once (A41).
  const json = new Map<object, string>();
  let buffer = Buffer.allocUnsafe(Math.min(items.length * 1_024, 4 * 1024 * 1024));
  let length = 0;
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
    line += '\n';
    const most = length + line.length * MAX_BYTES_PER_UNIT;
    if (most > maxBytes) {
      throw new ExportTooLarge(maxBytes);
    }
    if (most > buffer.length) {
      const larger = Buffer.allocUnsafe(Math.max(buffer.length * 2, most));
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    length += buffer.write(line, length);
  }
  return buffer.subarray(0, length);
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

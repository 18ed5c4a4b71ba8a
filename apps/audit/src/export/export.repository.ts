import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { APP_ROLE, Database, TENANT_SETTING } from '@agp/database';
import { Pool, PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';

import { AUDIT_DATABASE } from '../database/tokens';
import { EventFilter, whereOf } from '../events/event-filter';
import { exportSelectList } from './export-columns';

/** Operation 6's rows as PostgreSQL's own CSV (`COPY … TO STDOUT`) (RFC 4180, D17). */
@Injectable()
export class ExportRepository {
  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {}

  async open(tenantId: string, filter: EventFilter): Promise<Readable> {
    const pool = (this.database.dataSource.driver as unknown as { master: Pool }).master;
    const client = await pool.connect();
    let isReleased = false;
    const release = (error?: Error): void => {
      if (!isReleased) {
        isReleased = true;
        client.release(error);
      }
    };
    try {
      await client.query('BEGIN READ ONLY');
      // The same scoping as Database.inTenant: row-level security applies to the COPY's query.
      await client.query(`SELECT set_config('role', $1, true), set_config($2, $3, true)`, [
        APP_ROLE,
        TENANT_SETTING,
        tenantId,
      ]);
      const stream = client.query(copyTo(this.copySql(client, tenantId, filter)));
      stream.once('end', () => {
        client.query('COMMIT').then(
          () => release(),
          (error: Error) => release(error),
        );
      });
      stream.once('error', (error: Error) => release(error));
      stream.once('close', () => {
        if (!stream.readableEnded) {
          release(new Error('export aborted'));
        }
      });
      return stream;
    } catch (error) {
      release(error as Error);
      throw error;
    }
  }

  private copySql(client: PoolClient, tenantId: string, filter: EventFilter): string {
    const literal = (value: unknown): string => client.escapeLiteral(String(value));
    const where = whereOf(tenantId, filter, literal);
    return (
      `COPY (SELECT ${exportSelectList()} FROM ${this.database.schema}.events WHERE ${where} ` +
      `ORDER BY occurred_at, id) TO STDOUT WITH (FORMAT csv, HEADER true)`
    );
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { createPartitionStatements } from './partitions';

@Injectable()
export class EventPartitionsRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  async names(tx: Tx, table: string): Promise<string[]> {
    const rows: Array<{ name: string }> = await tx.query(
      `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
       JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = p.relnamespace
       WHERE n.nspname = $1 AND p.relname = $2 ORDER BY 1`,
      [this.schema, table],
    );
    return rows.map((row) => row.name);
  }

  /** Creates the day's partition of `table` unless it is there already. */
  async ensure(tx: Tx, table: string, name: string, day: Date): Promise<void> {
    const [found]: Array<{ exists: boolean }> = await tx.query(
      `SELECT to_regclass($1) IS NOT NULL AS exists`,
      [`${this.schema}.${name}`],
    );
    if (!found?.exists) {
      for (const statement of createPartitionStatements(this.schema, day, table)) {
        await tx.query(statement);
      }
    }
  }

  async dropIfEmpty(tx: Tx, name: string): Promise<boolean> {
    const rows: unknown[] = await tx.query(`SELECT 1 FROM ${this.schema}.${name} LIMIT 1`);
    if (rows.length > 0) {
      return false;
    }
    await tx.query(`DROP TABLE ${this.schema}.${name}`);
    return true;
  }
}

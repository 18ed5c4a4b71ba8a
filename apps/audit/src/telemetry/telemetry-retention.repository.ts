import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { LOGS_TABLE, SPANS_TABLE } from './telemetry-partitions.service';

const TIME_COLUMNS: Record<string, string> = {
  [SPANS_TABLE]: 'start_time',
  [LOGS_TABLE]: 'log_time',
};

/** The deletes of telemetry retention (A24); the service owns the transaction (F35). */
@Injectable()
export class TelemetryRetentionRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  async removeExpired(tx: Tx, table: string, now: Date, defaultDays: number): Promise<number> {
    const time = TIME_COLUMNS[table];
    const [, count]: [unknown, number] = await tx.query(
      `DELETE FROM ${this.schema}.${table} t
       WHERE t.${time} < $1::timestamptz - make_interval(days => coalesce(
         (SELECT (p.days->>'TRAFFIC')::int FROM ${this.schema}.retention_policies p WHERE p.tenant_id = t.tenant_id),
         $2))`,
      [now.toISOString(), defaultDays],
    );
    return count ?? 0;
  }

  /** Quota counts older than an hour are of no use to the quota (A25). */
  async removeOldUsage(tx: Tx, now: Date): Promise<void> {
    await tx.query(
      `DELETE FROM ${this.schema}.telemetry_usage WHERE window_start < $1::timestamptz - interval '1 hour'`,
      [now.toISOString()],
    );
  }
}

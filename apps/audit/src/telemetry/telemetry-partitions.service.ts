import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { EventPartitionsRepository } from '../events/event-partitions.repository';
import { DailyPartitions } from '../events/event-partitions.service';

export const SPANS_TABLE = 'telemetry_spans';
export const LOGS_TABLE = 'telemetry_logs';

/** The daily partitions of the two telemetry tables (A24), kept as the audit trail's are (A13). */
@Injectable()
export class TelemetryPartitionsService {
  readonly spans: DailyPartitions;
  readonly logs: DailyPartitions;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    // A stateless repository this module does not provide is made in place (F35).
    const catalog = new EventPartitionsRepository(database);
    this.spans = new DailyPartitions(database, catalog, SPANS_TABLE);
    this.logs = new DailyPartitions(database, catalog, LOGS_TABLE);
  }

  of(table: string): DailyPartitions {
    return table === SPANS_TABLE ? this.spans : this.logs;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { EVENT_COLUMNS, EventRow, eventOfRow } from './audit-event.row';
import { ChainedEvent } from './audit-event.types';
import { EventFilter, placeholders, whereOf } from './event-filter';

export interface EventKey {
  occurredAt: string;
  id: string;
}

/** Every read of events, scoped by the caller's tenant (and by row-level security). */
@Injectable()
export class EventsRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  async list(
    tx: Tx,
    tenantId: string,
    filter: EventFilter,
    limit: number,
    after?: EventKey,
  ): Promise<ChainedEvent[]> {
    const params: unknown[] = [];
    const param = placeholders(params);
    let where = whereOf(tenantId, filter, param);
    if (after) {
      where += ` AND (occurred_at, id) < (${param(after.occurredAt)}::timestamptz, ${param(after.id)}::uuid)`;
    }
    const rows: EventRow[] = await tx.query(
      `SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events WHERE ${where}
       ORDER BY occurred_at DESC, id DESC LIMIT ${param(limit)}`,
      params,
    );
    return rows.map(eventOfRow);
  }

  async findById(tx: Tx, tenantId: string, id: string): Promise<ChainedEvent | undefined> {
    const rows: EventRow[] = await tx.query(
      `SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events WHERE tenant_id = $1 AND id = $2 LIMIT 1`,
      [tenantId, id],
    );
    return rows[0] ? eventOfRow(rows[0]) : undefined;
  }

  async trace(
    tx: Tx,
    tenantId: string,
    correlationId: string,
    limit: number,
  ): Promise<ChainedEvent[]> {
    const rows: EventRow[] = await tx.query(
      `SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events WHERE tenant_id = $1 AND correlation_id = $2
       ORDER BY occurred_at, recorded_at, family, seq LIMIT $3`,
      [tenantId, correlationId, limit],
    );
    return rows.map(eventOfRow);
  }
}

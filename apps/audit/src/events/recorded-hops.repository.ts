import { Inject, Injectable } from '@nestjs/common';
import { RecordedHop, RecordedVerdict } from '@agp/contracts';
import { Database, Row, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';

/** The window and keyset position of one page of recorded hops (governance.md G10). */
export interface RecordedHopsWindow {
  from: string;
  to: string;
  after?: { at: string; id: string };
  limit: number;
}

/**
 * D49 replay's reads of the trail: the decided hops (COMMUNICATION_AUDIT with the bindings'
 * `verdicts`; a hop refused before any policy has none) in a window, oldest first.
 */
@Injectable()
export class RecordedHopsRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  async page(tx: Tx, tenantId: string, window: RecordedHopsWindow): Promise<RecordedHop[]> {
    const params: unknown[] = [tenantId, window.from, window.to, window.limit];
    let after = '';
    if (window.after) {
      params.push(window.after.at, window.after.id);
      after = ' AND (occurred_at, id) > ($5::timestamptz, $6::uuid)';
    }
    const rows: Row[] = await tx.query(
      `SELECT id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at,
         protocol, action, source_type, source_id, source_name, sink_type, sink_id, sink_name,
         details, decision, content
       FROM ${this.schema}.events
       WHERE tenant_id = $1 AND event_type = 'COMMUNICATION_AUDIT' AND occurred_at >= $2
         AND occurred_at < $3 AND details ? 'verdicts'${after}
       ORDER BY occurred_at, id LIMIT $4`,
      params,
    );
    return rows.map(hopOf);
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function party(type: unknown, id: unknown, label: unknown) {
  return {
    type: text(type) ?? 'UNKNOWN',
    ...(text(id) ? { id: text(id) } : {}),
    ...(text(label) ? { label: text(label) } : {}),
  };
}

function hopOf(row: Row): RecordedHop {
  const details = (row.details ?? {}) as Record<string, unknown>;
  const decision = (row.decision ?? {}) as { reasons?: unknown };
  const verdicts = Array.isArray(details.verdicts) ? (details.verdicts as RecordedVerdict[]) : [];
  const hop: RecordedHop = {
    id: String(row.id),
    occurredAt: String(row.occurred_at),
    protocol: row.protocol as RecordedHop['protocol'],
    source: party(row.source_type, row.source_id, row.source_name),
    sink: party(row.sink_type, row.sink_id, row.sink_name),
    action: row.action as RecordedHop['action'],
    reasons: Array.isArray(decision.reasons) ? decision.reasons.map(String) : [],
    verdicts: verdicts.map((v) => ({
      bindingId: String(v.bindingId),
      groupId: String(v.groupId),
      action: v.action,
    })),
  };
  const direction = text(details.direction);
  const method = text(details.method);
  const toolName = text(details.toolName);
  const content = text(row.content);
  return {
    ...hop,
    ...(direction ? { direction } : {}),
    ...(method ? { method } : {}),
    ...(toolName ? { toolName } : {}),
    ...(content !== undefined ? { content } : {}),
  };
}

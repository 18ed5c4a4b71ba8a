import { Injectable } from '@nestjs/common';
import { Row, Tx, iso, queryNamed, str } from '@agp/database';

import { SyntheticMarking } from '../disclosure/disclosure-terms';
import { ChannelMessage } from './channel-inbound';

/** CH4: RECEIVED until admitted; REPLY_HELD holds the agent's answer for a person. */
export type ChannelEventStatus =
  'RECEIVED' | 'PENDING' | 'REPLYING' | 'REPLY_HELD' | 'ANSWERED' | 'REFUSED' | 'FAILED';

/** What is posted back into the event's thread: the judged answer, or a notice in its place. */
export interface ChannelReply {
  text: string;
  /** CH11: a notice of the platform (refused, held, the agent failed), not the agent's words. */
  isNotice?: boolean;
  /** A notice's D41 name (`blocked_by_policy` …) and the decision it names. */
  agpCode?: string;
  decisionId?: string;
  /** CH15: the words telling the person they talk to an AI, when this reply carries them. */
  disclosure?: string;
  /** CH15: the machine-readable marking of the agent's words (traffic.md T72). */
  marking?: SyntheticMarking;
}

export interface ChannelEventRow {
  id: string;
  tenantId: string;
  channelId: string;
  externalId: string;
  correlationId: string;
  message: ChannelMessage;
  /** T94: the W3C trace context the inbound request came with (`traceparent`, `tracestate`). */
  trace?: Record<string, string>;
  status: ChannelEventStatus;
  reply?: ChannelReply;
  hitlRequestId?: string;
  attempts: number;
  createdAt: string;
}

const T = 'relay.channel_events';

@Injectable()
export class ChannelEventsRepository {
  /** CH3: once per platform event id, so a retry finds the first on any replica. */
  async insert(
    tx: Tx,
    event: Pick<
      ChannelEventRow,
      'id' | 'tenantId' | 'channelId' | 'externalId' | 'correlationId' | 'message' | 'trace'
    >,
  ): Promise<{ id: string; isNew: boolean }> {
    const inserted: Row[] = await tx.query(
      `INSERT INTO ${T} (id, tenant_id, channel_id, external_id, correlation_id, message, status,
         traceparent, tracestate)
       VALUES ($1, $2, $3, $4, $5, $6, 'RECEIVED', $7, $8)
       ON CONFLICT (channel_id, external_id) DO NOTHING RETURNING id`,
      [
        event.id,
        event.tenantId,
        event.channelId,
        event.externalId,
        event.correlationId,
        JSON.stringify(event.message),
        event.trace?.traceparent ?? null,
        event.trace?.tracestate ?? null,
      ],
    );
    if (inserted[0]) {
      return { id: String(inserted[0].id), isNew: true };
    }
    const first: Row[] = await tx.query(
      `SELECT id FROM ${T} WHERE tenant_id = $1 AND channel_id = $2 AND external_id = $3`,
      [event.tenantId, event.channelId, event.externalId],
    );
    return { id: String(first[0].id), isNew: false };
  }

  /** Due events of every tenant, each leased to this replica (`SKIP LOCKED`, F30). */
  async claimDue(tx: Tx, limit: number, leaseMs: number): Promise<ChannelEventRow[]> {
    // A CTE, so the driver answers the rows (a bare UPDATE … RETURNING comes back with a count).
    // Named (F53): the claim runs twice a second on every replica, so its columns are listed.
    const rows: Row[] = await queryNamed(
      tx,
      `WITH claimed AS (
         UPDATE ${T} e SET lease_until = now() + make_interval(secs => $2::double precision / 1000)
          WHERE e.id IN (SELECT id FROM ${T}
             WHERE (status IN ('PENDING', 'REPLYING', 'REPLY_HELD')
                    -- admitted by a replica that stopped before it said so (CH4)
                    OR (status = 'RECEIVED' AND created_at < now() - interval '1 minute'))
               AND next_attempt_at <= now()
               AND (lease_until IS NULL OR lease_until < now())
             ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
          RETURNING e.id, e.tenant_id, e.channel_id, e.external_id, e.correlation_id, e.message,
            e.traceparent, e.tracestate, e.status, e.reply, e.hitl_request_id, e.attempts, e.created_at)
       SELECT * FROM claimed`,
      [limit, leaseMs],
    );
    return rows.map(toRow);
  }

  /** Where the event is now; the lease ends, `retryInMs` says when it is due again. */
  async save(
    tx: Tx,
    id: string,
    change: {
      status: ChannelEventStatus;
      reply?: ChannelReply;
      hitlRequestId?: string | null;
      retryInMs?: number;
      lastError?: string;
      /** A failed attempt to post the reply: counted towards giving up (CH4). */
      failed?: boolean;
    },
  ): Promise<void> {
    await tx.query(
      `UPDATE ${T} SET status = $2, reply = coalesce($3::jsonb, reply),
              hitl_request_id = CASE WHEN $4::boolean THEN $5::uuid ELSE hitl_request_id END,
              next_attempt_at = now() + make_interval(secs => $6::double precision / 1000),
              last_error = $7, lease_until = NULL, updated_at = now(),
              attempts = CASE WHEN $8::boolean THEN attempts + 1 ELSE attempts END
        WHERE id = $1`,
      [
        id,
        change.status,
        change.reply ? JSON.stringify(change.reply) : null,
        change.hitlRequestId !== undefined,
        change.hitlRequestId ?? null,
        change.retryInMs ?? 0,
        change.lastError ?? null,
        change.failed === true,
      ],
    );
  }

  /** After admission at intake (CH5): PENDING for the worker, REFUSED, or gone (rate limited). */
  async admitted(tx: Tx, id: string, status: 'PENDING' | 'REFUSED' | 'GONE'): Promise<void> {
    if (status === 'GONE') {
      await tx.query(`DELETE FROM ${T} WHERE id = $1`, [id]);
      return;
    }
    await tx.query(`UPDATE ${T} SET status = $2, updated_at = now() WHERE id = $1`, [id, status]);
  }

  /** CH13: settled events last changed before `before`, of every tenant; how many went. */
  async pruneSettled(tx: Tx, before: Date): Promise<number> {
    const rows: Row[] = await tx.query(
      `WITH gone AS (DELETE FROM ${T} WHERE status IN ('ANSWERED', 'REFUSED', 'FAILED')
         AND updated_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      [before],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async find(
    tx: Tx,
    tenantId: string,
    channelId: string,
    id: string,
  ): Promise<ChannelEventRow | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 AND channel_id = $2 AND id = $3`,
      [tenantId, channelId, id],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }
}

function toRow(row: Row): ChannelEventRow {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    channelId: String(row.channel_id),
    externalId: String(row.external_id),
    correlationId: String(row.correlation_id),
    message: row.message as ChannelMessage,
    ...(str(row.traceparent)
      ? {
          trace: {
            traceparent: String(row.traceparent),
            ...(str(row.tracestate) ? { tracestate: String(row.tracestate) } : {}),
          },
        }
      : {}),
    status: String(row.status) as ChannelEventStatus,
    ...(row.reply ? { reply: row.reply as ChannelReply } : {}),
    ...(str(row.hitl_request_id) ? { hitlRequestId: String(row.hitl_request_id) } : {}),
    attempts: Number(row.attempts),
    createdAt: iso(row.created_at) ?? '',
  };
}

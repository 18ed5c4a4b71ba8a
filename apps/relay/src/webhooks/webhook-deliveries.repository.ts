import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { Row, Tx, iso, queryNamed, returning, str } from '@agp/database';

import {
  AttemptOutcome,
  ClaimedDelivery,
  NextState,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryStatus,
} from './webhook-delivery.types';
import { WebhookAudience } from './webhook-events';

const D = 'relay.webhook_deliveries';
const A = 'relay.webhook_delivery_attempts';

export interface NewDelivery {
  id: string;
  agentId: string;
  payload: string;
  /** Where to send it instead of the agent's webhook URL (an A2A push: the caller's URL, T43). */
  url?: string;
  /** Sealed JSON of headers to send besides D19's. */
  headersCiphertext?: string;
}

export interface DeliveryFilter {
  status?: WebhookDeliveryStatus;
  eventType?: string;
}

/** Deliveries owed to agents' webhooks and their attempts (D19). */
@Injectable()
export class WebhookDeliveriesRepository {
  /** W23: only webhooks set by the time the event occurred hear it. */
  async recipients(
    tx: Tx,
    tenantId: string,
    audience: WebhookAudience,
    occurredAt: string,
  ): Promise<string[]> {
    const having = `tenant_id = $1 AND webhook_url IS NOT NULL AND status <> 'DELETED'
      AND webhook_set_at <= $2`;
    let rows: Row[] = [];
    switch (audience.kind) {
      case 'nobody':
        return [];
      case 'tenant':
        rows = await tx.query(`SELECT id FROM relay.agents WHERE ${having}`, [
          tenantId,
          occurredAt,
        ]);
        break;
      case 'agents':
        rows = await tx.query(`SELECT id FROM relay.agents WHERE ${having} AND id = ANY($3)`, [
          tenantId,
          occurredAt,
          audience.agentIds,
        ]);
        break;
      case 'agent-and-callers':
        rows = await tx.query(
          `SELECT id FROM relay.agents WHERE ${having} AND (($4 AND id = $3) OR id IN (
             SELECT source_id FROM relay.subscriptions
             WHERE tenant_id = $1 AND kind = 'AGENT_TO_AGENT' AND target_id = $3))`,
          [tenantId, occurredAt, audience.agentId, audience.includesAgent],
        );
        break;
    }
    return rows.map((row) => String(row.id));
  }

  /** One delivery per agent and event: a second insert of the same pair changes nothing. */
  async insert(
    tx: Tx,
    tenantId: string,
    event: { id: string; type: string; correlationId: string },
    deliveries: NewDelivery[],
  ): Promise<void> {
    if (deliveries.length === 0) {
      return;
    }
    await tx.query(
      `INSERT INTO ${D} (id, tenant_id, agent_id, event_id, event_type, correlation_id, payload, url, headers_ciphertext, next_attempt_at)
       SELECT d.id, $1, d.agent_id, $2, $3, $4, d.payload, d.url, d.headers, now()
       FROM unnest($5::uuid[], $6::uuid[], $7::text[], $8::text[], $9::text[]) AS d(id, agent_id, payload, url, headers)
       ON CONFLICT (agent_id, event_id) DO NOTHING`,
      [
        tenantId,
        event.id,
        event.type,
        event.correlationId,
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.agentId),
        deliveries.map((d) => d.payload),
        deliveries.map((d) => d.url ?? null),
        deliveries.map((d) => d.headersCiphertext ?? null),
      ],
    );
  }

  /** System scope: `SKIP LOCKED` keeps replicas off rows, the lease off one being sent. */
  async claimDue(tx: Tx, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const leaseToken = randomUUID();
    const rows: Row[] = await queryNamed(
      tx,
      `WITH claimed AS (
         UPDATE ${D} d SET lease_token = $2, lease_until = now() + make_interval(secs => $3::double precision / 1000)
         WHERE d.id IN (SELECT id FROM ${D}
           WHERE status = 'PENDING' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
           ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING d.id, d.tenant_id, d.agent_id, d.event_type, d.correlation_id, d.payload, d.round_attempts,
           d.url, d.headers_ciphertext)
       SELECT c.*, a.status AS agent_status, coalesce(c.url, a.webhook_url) AS webhook_url,
              a.webhook_secret_ciphertext,
              CASE WHEN a.webhook_previous_secret_expires_at > now() THEN a.webhook_previous_secret_ciphertext END AS previous_secret
       FROM claimed c LEFT JOIN relay.agents a ON a.id = c.agent_id AND a.tenant_id = c.tenant_id`,
      [limit, leaseToken, leaseMs],
    );
    return rows.map((row) => ({
      id: String(row.id),
      tenantId: String(row.tenant_id),
      agentId: String(row.agent_id),
      eventType: String(row.event_type),
      correlationId: String(row.correlation_id),
      payload: String(row.payload),
      roundAttempts: Number(row.round_attempts),
      leaseToken,
      agentStatus: str(row.agent_status),
      url: str(row.webhook_url),
      secretCiphertexts: [row.webhook_secret_ciphertext, row.previous_secret]
        .filter((value) => value !== null && value !== undefined)
        .map(String),
      headersCiphertext: str(row.headers_ciphertext),
    }));
  }

  /** The state moves only while the lease is held; the attempt itself is always kept. */
  async recordAttempt(
    tx: Tx,
    claimed: ClaimedDelivery,
    outcome: AttemptOutcome,
    next: NextState,
  ): Promise<void> {
    let rows = await returning(
      tx,
      `UPDATE ${D} SET attempt_count = attempt_count + 1, round_attempts = round_attempts + 1,
         status = $3, next_attempt_at = $4, lease_token = NULL, lease_until = NULL,
         last_status_code = $5, last_error = $6,
         delivered_at = CASE WHEN $3 = 'DELIVERED' THEN now() ELSE delivered_at END, updated_at = now()
       WHERE id = $1 AND lease_token = $2 RETURNING attempt_count`,
      [
        claimed.id,
        claimed.leaseToken,
        next.status,
        next.nextAttemptAt,
        outcome.statusCode ?? null,
        outcome.error ?? null,
      ],
    );
    if (rows.length === 0) {
      rows = await returning(
        tx,
        `UPDATE ${D} SET attempt_count = attempt_count + 1, updated_at = now() WHERE id = $1 RETURNING attempt_count`,
        [claimed.id],
      );
    }
    await tx.query(
      `INSERT INTO ${A} (id, tenant_id, delivery_id, attempt, url, attempted_at, duration_ms, status_code, error, response_excerpt, signatures)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        randomUUID(),
        claimed.tenantId,
        claimed.id,
        Number(rows[0]?.attempt_count ?? 0),
        outcome.url,
        outcome.attemptedAt,
        outcome.durationMs,
        outcome.statusCode ?? null,
        outcome.error ?? null,
        outcome.responseExcerpt ?? null,
        outcome.signatures,
      ],
    );
  }

  /** A delivery that cannot be attempted (no webhook any more): FAILED, with why. */
  async abandon(tx: Tx, claimed: ClaimedDelivery, reason: string): Promise<void> {
    await tx.query(
      `UPDATE ${D} SET status = 'FAILED', next_attempt_at = NULL, lease_token = NULL, lease_until = NULL,
         last_error = $3, updated_at = now()
       WHERE id = $1 AND lease_token = $2`,
      [claimed.id, claimed.leaseToken, reason],
    );
  }

  /** Back to PENDING with a fresh round of attempts, due now; false when there is no such delivery. */
  async redeliver(tx: Tx, tenantId: string, agentId: string, id: string): Promise<boolean> {
    const rows = await returning(
      tx,
      `UPDATE ${D} SET status = 'PENDING', round_attempts = 0, next_attempt_at = now(),
         lease_token = NULL, lease_until = NULL, updated_at = now()
       WHERE tenant_id = $1 AND agent_id = $2 AND id = $3 RETURNING id`,
      [tenantId, agentId, id],
    );
    return rows.length > 0;
  }

  async pruneSettled(tx: Tx, before: Date, batch: number): Promise<number> {
    const rows = await returning(
      tx,
      `DELETE FROM ${D} WHERE id IN (SELECT id FROM ${D}
         WHERE status <> 'PENDING' AND updated_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [before, batch],
    );
    return rows.length;
  }

  async find(
    tx: Tx,
    tenantId: string,
    agentId: string,
    id: string,
  ): Promise<WebhookDelivery | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${D} WHERE tenant_id = $1 AND agent_id = $2 AND id = $3`,
      [tenantId, agentId, id],
    );
    return (await this.withAttempts(tx, tenantId, rows))[0];
  }

  async list(
    tx: Tx,
    tenantId: string,
    agentId: string,
    filter: DeliveryFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: WebhookDelivery[]; total: number }> {
    const where = `tenant_id = $1 AND agent_id = $2 AND ($3::text IS NULL OR status = $3) AND ($4::text IS NULL OR event_type = $4)`;
    const params = [tenantId, agentId, filter.status ?? null, filter.eventType ?? null];
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${D} WHERE ${where} ORDER BY created_at DESC, id LIMIT $5 OFFSET $6`,
      [...params, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${D} WHERE ${where}`,
      params,
    );
    return { items: await this.withAttempts(tx, tenantId, rows), total: Number(count?.n ?? 0) };
  }

  private async withAttempts(tx: Tx, tenantId: string, rows: Row[]): Promise<WebhookDelivery[]> {
    if (rows.length === 0) {
      return [];
    }
    const attempts: Row[] = await tx.query(
      `SELECT * FROM ${A} WHERE tenant_id = $1 AND delivery_id = ANY($2) ORDER BY attempt`,
      [tenantId, rows.map((row) => row.id)],
    );
    return rows.map((row) =>
      toDelivery(
        row,
        attempts.filter((attempt) => attempt.delivery_id === row.id),
      ),
    );
  }
}

function toDelivery(row: Row, attempts: Row[]): WebhookDelivery {
  return {
    id: String(row.id),
    agentId: String(row.agent_id),
    eventId: String(row.event_id),
    eventType: String(row.event_type),
    status: String(row.status) as WebhookDeliveryStatus,
    attemptCount: Number(row.attempt_count),
    nextAttemptAt: row.status === 'PENDING' ? iso(row.next_attempt_at) : undefined,
    lastStatusCode: optionalNumber(row.last_status_code),
    lastError: str(row.last_error),
    deliveredAt: iso(row.delivered_at),
    body: JSON.parse(String(row.payload)) as Record<string, unknown>,
    attempts: attempts.map(toAttempt),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

function toAttempt(row: Row): WebhookAttempt {
  return {
    attempt: Number(row.attempt),
    attemptedAt: iso(row.attempted_at)!,
    url: String(row.url),
    durationMs: Number(row.duration_ms),
    statusCode: optionalNumber(row.status_code),
    error: str(row.error),
    responseExcerpt: str(row.response_excerpt),
    signatures: Number(row.signatures),
  };
}

function optionalNumber(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}

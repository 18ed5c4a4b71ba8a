import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { Row, Tx, iso, queryNamed, returning, str, text } from '@agp/database';

import { NextState } from '../webhooks/webhook-delivery.types';
import {
  ClaimedNotification,
  NotificationDelivery,
  NotificationDeliveryStatus,
  NotificationEvent,
  NotificationTargetKind,
  SendOutcome,
} from './notification.types';

const D = 'relay.notification_deliveries';
const A = 'relay.notification_delivery_attempts';

export interface NewNotification {
  id: string;
  targetId: string;
  payload: string;
}

/** Deliveries owed to notification targets and their attempts (D58); shaped as W8's webhooks. */
@Injectable()
export class NotificationDeliveriesRepository {
  /** One delivery per target and event: a second insert of the same pair changes nothing. */
  async insert(
    tx: Tx,
    tenantId: string,
    event: { id: string; correlationId: string },
    notice: NotificationEvent,
    deliveries: NewNotification[],
  ): Promise<void> {
    if (deliveries.length === 0) {
      return;
    }
    await tx.query(
      `INSERT INTO ${D} (id, tenant_id, target_id, event_id, event, correlation_id, payload, next_attempt_at)
       SELECT d.id, $1, d.target_id, $2, $3, $4, d.payload, now()
       FROM unnest($5::uuid[], $6::uuid[], $7::text[]) AS d(id, target_id, payload)
       ON CONFLICT (target_id, event_id) DO NOTHING`,
      [
        tenantId,
        event.id,
        notice,
        event.correlationId,
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.targetId),
        deliveries.map((d) => d.payload),
      ],
    );
  }

  /** System scope: `SKIP LOCKED` keeps replicas off the same rows, the lease off one in flight. */
  async claimDue(tx: Tx, limit: number, leaseMs: number): Promise<ClaimedNotification[]> {
    const leaseToken = randomUUID();
    const rows: Row[] = await queryNamed(
      tx,
      `WITH claimed AS (
         UPDATE ${D} d SET lease_token = $2, lease_until = now() + make_interval(secs => $3::double precision / 1000)
         WHERE d.id IN (SELECT id FROM ${D}
           WHERE status = 'PENDING' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
           ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING d.id, d.tenant_id, d.target_id, d.event, d.correlation_id, d.payload, d.round_attempts)
       SELECT c.*, t.kind, t.is_enabled, t.config, t.secrets_ciphertext
       FROM claimed c LEFT JOIN relay.notification_targets t ON t.id = c.target_id AND t.tenant_id = c.tenant_id`,
      [limit, leaseToken, leaseMs],
    );
    return rows.map((row) => ({
      id: String(row.id),
      tenantId: String(row.tenant_id),
      targetId: String(row.target_id),
      event: String(row.event) as NotificationEvent,
      correlationId: String(row.correlation_id),
      payload: String(row.payload),
      roundAttempts: Number(row.round_attempts),
      leaseToken,
      target:
        row.kind === null || row.kind === undefined
          ? undefined
          : {
              kind: text(row.kind) as NotificationTargetKind,
              isEnabled: Boolean(row.is_enabled),
              config: row.config as Record<string, unknown>,
              secretsCiphertext: String(row.secrets_ciphertext),
            },
    }));
  }

  /** Records an attempt; the state moves only while this replica still holds the lease. */
  async recordAttempt(
    tx: Tx,
    claimed: ClaimedNotification,
    outcome: SendOutcome,
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
      `INSERT INTO ${A} (id, tenant_id, delivery_id, attempt, attempted_at, duration_ms, status_code, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (delivery_id, attempt) DO NOTHING`,
      [
        randomUUID(),
        claimed.tenantId,
        claimed.id,
        Number(rows[0]?.attempt_count ?? 0),
        outcome.attemptedAt,
        outcome.durationMs,
        outcome.statusCode ?? null,
        outcome.error ?? null,
      ],
    );
  }

  /** A delivery that cannot be attempted (its target disabled, its secret unreadable): FAILED. */
  async abandon(tx: Tx, claimed: ClaimedNotification, reason: string): Promise<void> {
    await tx.query(
      `UPDATE ${D} SET status = 'FAILED', next_attempt_at = NULL, lease_token = NULL, lease_until = NULL,
         last_error = $3, updated_at = now()
       WHERE id = $1 AND lease_token = $2`,
      [claimed.id, claimed.leaseToken, reason],
    );
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

  async list(
    tx: Tx,
    tenantId: string,
    targetId: string,
    status: NotificationDeliveryStatus | undefined,
    limit: number,
    offset: number,
  ): Promise<{ items: NotificationDelivery[]; total: number }> {
    const where = `tenant_id = $1 AND target_id = $2 AND ($3::text IS NULL OR status = $3)`;
    const params = [tenantId, targetId, status ?? null];
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${D} WHERE ${where} ORDER BY created_at DESC, id LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${D} WHERE ${where}`,
      params,
    );
    if (rows.length === 0) {
      return { items: [], total: Number(count?.n ?? 0) };
    }
    const attempts: Row[] = await tx.query(
      `SELECT * FROM ${A} WHERE tenant_id = $1 AND delivery_id = ANY($2) ORDER BY attempt`,
      [tenantId, rows.map((row) => row.id)],
    );
    return {
      items: rows.map((row) =>
        toDelivery(
          row,
          attempts.filter((attempt) => attempt.delivery_id === row.id),
        ),
      ),
      total: Number(count?.n ?? 0),
    };
  }
}

function toDelivery(row: Row, attempts: Row[]): NotificationDelivery {
  return {
    id: String(row.id),
    targetId: String(row.target_id),
    eventId: String(row.event_id),
    event: String(row.event) as NotificationEvent,
    status: String(row.status) as NotificationDeliveryStatus,
    attemptCount: Number(row.attempt_count),
    nextAttemptAt: row.status === 'PENDING' ? iso(row.next_attempt_at) : undefined,
    lastStatusCode: optionalNumber(row.last_status_code),
    lastError: str(row.last_error),
    deliveredAt: iso(row.delivered_at),
    body: JSON.parse(String(row.payload)) as Record<string, unknown>,
    attempts: attempts.map((attempt) => ({
      attempt: Number(attempt.attempt),
      attemptedAt: iso(attempt.attempted_at)!,
      durationMs: Number(attempt.duration_ms),
      statusCode: optionalNumber(attempt.status_code),
      error: str(attempt.error),
    })),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

function optionalNumber(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}

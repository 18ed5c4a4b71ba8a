import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { MessageDirection, Protocol } from '@agp/contracts';
import { iso, returning, Row, str, Tx } from '@agp/database';

import { EndpointRef } from '../decisions/decision.types';
import { HitlRequest, HitlStatus, HoldInput } from './hitl.types';

const S = 'relay';
const COLUMNS = `id, status, protocol, direction, agent_id, source, sink, method, tool, message,
  resend_digest, reasons, policy_ids, decision_id, correlation_id, expires_at, decided_by,
  decided_by_label, decided_at, note, released_at, created_at, updated_at`;

export interface StoredHitlRequest extends HitlRequest {
  tenantId: string;
  resendDigest: string;
}

function toRequest(row: Row): StoredHitlRequest {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    status: String(row.status) as HitlStatus,
    protocol: String(row.protocol) as Protocol,
    direction: String(row.direction) as MessageDirection,
    agentId: String(row.agent_id),
    source: row.source as EndpointRef,
    sink: row.sink as EndpointRef,
    method: str(row.method) ?? null,
    tool: str(row.tool) ?? null,
    message: row.message,
    resendDigest: String(row.resend_digest),
    reasons: (row.reasons as string[]) ?? [],
    policyIds: (row.policy_ids as string[]) ?? [],
    decisionId: String(row.decision_id),
    correlationId: String(row.correlation_id),
    expiresAt: iso(row.expires_at)!,
    decidedBy: str(row.decided_by) ?? null,
    decidedByLabel: str(row.decided_by_label) ?? null,
    decidedAt: iso(row.decided_at) ?? null,
    note: str(row.note) ?? null,
    releasedAt: iso(row.released_at) ?? null,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

/** Every query on `relay.hitl_requests`; tenant work takes the tenant id (D4). */
@Injectable()
export class HitlRepository {
  async insert(tx: Tx, hold: HoldInput): Promise<StoredHitlRequest> {
    const rows: Row[] = await tx.query(
      `INSERT INTO ${S}.hitl_requests (id, tenant_id, status, protocol, direction, agent_id, source,
         sink, method, tool, message, resend_digest, reasons, policy_ids, decision_id,
         correlation_id, expires_at)
       VALUES ($1, $2, 'PENDING', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
         now() + make_interval(secs => $16))
       RETURNING tenant_id, ${COLUMNS}`,
      [
        randomUUID(),
        hold.tenantId,
        hold.protocol,
        hold.direction,
        hold.agent.id,
        JSON.stringify(hold.source),
        JSON.stringify(hold.sink),
        hold.method ?? null,
        hold.tool ?? null,
        JSON.stringify(hold.message),
        hold.resendDigest,
        JSON.stringify(hold.reasons),
        hold.policyIds,
        hold.decisionId,
        hold.correlationId,
        hold.expirySeconds,
      ],
    );
    return toRequest(rows[0]);
  }

  async find(tx: Tx, tenantId: string, id: string): Promise<StoredHitlRequest | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT tenant_id, ${COLUMNS} FROM ${S}.hitl_requests WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0] ? toRequest(rows[0]) : undefined;
  }

  async list(
    tx: Tx,
    tenantId: string,
    filter: { status?: HitlStatus; agentId?: string },
    limit: number,
    offset: number,
  ): Promise<{ items: StoredHitlRequest[]; total: number }> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    if (filter.status) {
      params.push(filter.status);
      where.push(`status = $${params.length}`);
    }
    if (filter.agentId) {
      params.push(filter.agentId);
      where.push(`agent_id = $${params.length}`);
    }
    const rows: Row[] = await tx.query(
      `SELECT tenant_id, ${COLUMNS}, count(*) OVER () AS total FROM ${S}.hitl_requests
        WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return { items: rows.map(toRequest), total: rows[0] ? Number(rows[0].total) : 0 };
  }

  /** PENDING → APPROVED | REJECTED, only if still pending and not expired (any replica may race). */
  async decide(
    tx: Tx,
    tenantId: string,
    id: string,
    status: 'APPROVED' | 'REJECTED',
    by: { id: string; label: string },
    note: string | null,
  ): Promise<StoredHitlRequest | undefined> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.hitl_requests SET status = $3, decided_by = $4, decided_by_label = $5,
         decided_at = now(), note = $6, updated_at = now()
        WHERE tenant_id = $1 AND id = $2 AND status = 'PENDING' AND expires_at > now()
        RETURNING tenant_id, ${COLUMNS}`,
      [tenantId, id, status, by.id, by.label, note],
    );
    return rows[0] ? toRequest(rows[0]) : undefined;
  }

  /** APPROVED → RELEASED: exactly one caller wins, however many replicas try (D34). */
  async release(tx: Tx, tenantId: string, id: string): Promise<StoredHitlRequest | undefined> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.hitl_requests SET status = 'RELEASED', released_at = now(), updated_at = now()
        WHERE tenant_id = $1 AND id = $2 AND status = 'APPROVED'
        RETURNING tenant_id, ${COLUMNS}`,
      [tenantId, id],
    );
    return rows[0] ? toRequest(rows[0]) : undefined;
  }

  /** System scope: the decided ones among the holds this replica's callers wait on. */
  async decidedAmong(tx: Tx, ids: string[]): Promise<Array<{ id: string; status: HitlStatus }>> {
    const rows: Row[] = await tx.query(
      `SELECT id, status FROM ${S}.hitl_requests WHERE id = ANY($1::uuid[]) AND status <> 'PENDING'`,
      [ids],
    );
    return rows.map((r) => ({ id: String(r.id), status: String(r.status) as HitlStatus }));
  }

  /** G18: a PENDING hold becomes EXPIRED now (a LIVE evaluation's: nothing is released later). */
  async expire(tx: Tx, tenantId: string, id: string): Promise<StoredHitlRequest | undefined> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.hitl_requests SET status = 'EXPIRED', updated_at = now()
        WHERE tenant_id = $1 AND id = $2 AND status = 'PENDING'
        RETURNING tenant_id, ${COLUMNS}`,
      [tenantId, id],
    );
    return rows[0] ? toRequest(rows[0]) : undefined;
  }

  /** System scope: PENDING holds past their expiry become EXPIRED (once, whichever replica). */
  async expireDue(tx: Tx, limit: number): Promise<StoredHitlRequest[]> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.hitl_requests SET status = 'EXPIRED', updated_at = now()
        WHERE id IN (SELECT id FROM ${S}.hitl_requests
                      WHERE status = 'PENDING' AND expires_at <= now()
                      ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING tenant_id, ${COLUMNS}`,
      [limit],
    );
    return rows.map(toRequest);
  }

  async countPending(tx: Tx, tenantId: string): Promise<number> {
    const rows: Row[] = await tx.query(
      `SELECT count(*)::int AS n FROM ${S}.hitl_requests
        WHERE tenant_id = $1 AND status = 'PENDING' AND expires_at > now()`,
      [tenantId],
    );
    return Number(rows[0]?.n ?? 0);
  }
}

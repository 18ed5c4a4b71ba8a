import { Injectable } from '@nestjs/common';
import { iso, returning, Row, text, Tx } from '@agp/database';

import { meetsSeverity } from './notification-events';
import {
  NotificationEvent,
  NotificationSeverity,
  NotificationTargetKind,
  StoredTarget,
} from './notification.types';

const T = 'relay.notification_targets';

export type NewTarget = Omit<StoredTarget, 'createdAt' | 'updatedAt'>;
export type TargetChange = Pick<
  StoredTarget,
  'name' | 'events' | 'minSeverity' | 'isEnabled' | 'config' | 'secretsCiphertext' | 'secretFields'
>;

/** A tenant's notification targets (D58); every method takes the tenant id. */
@Injectable()
export class NotificationTargetsRepository {
  async insert(tx: Tx, target: NewTarget): Promise<StoredTarget> {
    const [row] = await tx.query<Row[]>(
      `INSERT INTO ${T} (id, tenant_id, name, kind, events, min_severity, is_enabled, config, secrets_ciphertext, secret_fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
      [
        target.id,
        target.tenantId,
        target.name,
        target.kind,
        target.events,
        target.minSeverity,
        target.isEnabled,
        JSON.stringify(target.config),
        target.secretsCiphertext,
        target.secretFields,
      ],
    );
    return toTarget(row);
  }

  async find(
    tx: Tx,
    tenantId: string,
    id: string,
    lock = false,
  ): Promise<StoredTarget | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [tenantId, id],
    );
    return rows[0] ? toTarget(rows[0]) : undefined;
  }

  async list(
    tx: Tx,
    tenantId: string,
    limit: number,
    offset: number,
  ): Promise<{ items: StoredTarget[]; total: number }> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 ORDER BY name, id LIMIT $2 OFFSET $3`,
      [tenantId, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${T} WHERE tenant_id = $1`,
      [tenantId],
    );
    return { items: rows.map(toTarget), total: Number(count?.n ?? 0) };
  }

  async update(tx: Tx, tenantId: string, id: string, change: TargetChange): Promise<StoredTarget> {
    const [row] = await returning(
      tx,
      `UPDATE ${T} SET name = $3, events = $4, min_severity = $5, is_enabled = $6, config = $7,
         secrets_ciphertext = $8, secret_fields = $9, updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      [
        tenantId,
        id,
        change.name,
        change.events,
        change.minSeverity,
        change.isEnabled,
        JSON.stringify(change.config),
        change.secretsCiphertext,
        change.secretFields,
      ],
    );
    return toTarget(row);
  }

  /** Its deliveries go with it (ON DELETE CASCADE). */
  async delete(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${T} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  async audienceOf(
    tx: Tx,
    tenantId: string,
    event: NotificationEvent,
    severity?: NotificationSeverity,
  ): Promise<StoredTarget[]> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 AND is_enabled AND $2 = ANY(events)`,
      [tenantId, event],
    );
    return rows.map(toTarget).filter((target) => meetsSeverity(severity, target.minSeverity));
  }
}

function toTarget(row: Row): StoredTarget {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    name: String(row.name),
    kind: String(row.kind) as NotificationTargetKind,
    events: (row.events as string[]).map((event) => event as NotificationEvent),
    minSeverity: row.min_severity ? (text(row.min_severity) as NotificationSeverity) : null,
    isEnabled: Boolean(row.is_enabled),
    config: (typeof row.config === 'string' ? JSON.parse(row.config) : row.config) as Record<
      string,
      unknown
    >,
    secretsCiphertext: String(row.secrets_ciphertext),
    secretFields: (row.secret_fields as string[] | null) ?? [],
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

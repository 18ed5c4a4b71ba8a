import { Injectable } from '@nestjs/common';
import { Row, Tx, iso, returning } from '@agp/database';
import { PatternMode } from '@agp/guardrails';

import { PatternScope, StoredDetectionPattern } from './detection-pattern.types';

const T = 'relay.detection_patterns';

export type NewDetectionPattern = Omit<StoredDetectionPattern, 'createdAt' | 'updatedAt'>;
export type DetectionPatternChange = Pick<
  StoredDetectionPattern,
  'set' | 'label' | 'pattern' | 'flags' | 'mode' | 'scope'
>;

/** D53: a tenant's patterns; every method takes the tenant id. */
@Injectable()
export class DetectionPatternsRepository {
  async insert(tx: Tx, p: NewDetectionPattern): Promise<StoredDetectionPattern> {
    const [row] = await tx.query<Row[]>(
      `INSERT INTO ${T} (id, tenant_id, set_name, label, pattern, flags, mode, scope)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [p.id, p.tenantId, p.set, p.label, p.pattern, p.flags, p.mode, p.scope],
    );
    return toPattern(row);
  }

  async find(
    tx: Tx,
    tenantId: string,
    id: string,
    lock = false,
  ): Promise<StoredDetectionPattern | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [tenantId, id],
    );
    return rows[0] ? toPattern(rows[0]) : undefined;
  }

  /** A page, optionally of one set, by set and label. */
  async list(
    tx: Tx,
    tenantId: string,
    set: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ items: StoredDetectionPattern[]; total: number }> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 AND ($2::text IS NULL OR set_name = $2)
        ORDER BY set_name, label, id LIMIT $3 OFFSET $4`,
      [tenantId, set ?? null, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${T} WHERE tenant_id = $1 AND ($2::text IS NULL OR set_name = $2)`,
      [tenantId, set ?? null],
    );
    return { items: rows.map(toPattern), total: Number(count?.n ?? 0) };
  }

  /** Every pattern of the tenant: what the decision cache compiles (GR17). */
  async all(tx: Tx, tenantId: string): Promise<StoredDetectionPattern[]> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 ORDER BY set_name, label`,
      [tenantId],
    );
    return rows.map(toPattern);
  }

  async update(
    tx: Tx,
    tenantId: string,
    id: string,
    change: DetectionPatternChange,
  ): Promise<StoredDetectionPattern> {
    const [row] = await returning(
      tx,
      `UPDATE ${T} SET set_name = $3, label = $4, pattern = $5, flags = $6, mode = $7, scope = $8,
         updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      [
        tenantId,
        id,
        change.set,
        change.label,
        change.pattern,
        change.flags,
        change.mode,
        change.scope,
      ],
    );
    return toPattern(row);
  }

  async delete(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${T} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }
}

function toPattern(row: Row): StoredDetectionPattern {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    set: String(row.set_name),
    label: String(row.label),
    pattern: String(row.pattern),
    flags: String(row.flags),
    mode: String(row.mode) as PatternMode,
    scope: String(row.scope) as PatternScope,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { DEFAULT_RETENTION_DAYS, EVENT_FAMILIES, EventFamily } from '../events/event-families';
import { RetentionPolicy } from './retention.types';

interface PolicyRow {
  days: Partial<Record<EventFamily, number>>;
  capture_content: boolean;
  updated_at: Date;
}

export function withDefaults(
  days: Partial<Record<EventFamily, number>>,
): Record<EventFamily, number> {
  return Object.fromEntries(
    EVENT_FAMILIES.map((family) => [family, days[family] ?? DEFAULT_RETENTION_DAYS[family]]),
  ) as Record<EventFamily, number>;
}

function policyOf(row: PolicyRow | undefined): RetentionPolicy {
  return row
    ? {
        days: withDefaults(row.days),
        captureContent: row.capture_content,
        updatedAt: row.updated_at.toISOString(),
      }
    : { days: withDefaults({}), captureContent: false, updatedAt: null };
}

@Injectable()
export class RetentionRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  async find(tx: Tx, tenantId: string, forUpdate = false): Promise<RetentionPolicy> {
    const rows: PolicyRow[] = await tx.query(
      `SELECT days, capture_content, updated_at FROM ${this.schema}.retention_policies WHERE tenant_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [tenantId],
    );
    return policyOf(rows[0]);
  }

  async save(
    tx: Tx,
    tenantId: string,
    days: Record<EventFamily, number>,
    captureContent: boolean,
  ): Promise<RetentionPolicy> {
    const rows: PolicyRow[] = await tx.query(
      `INSERT INTO ${this.schema}.retention_policies (tenant_id, days, capture_content, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (tenant_id) DO UPDATE SET days = EXCLUDED.days, capture_content = EXCLUDED.capture_content, updated_at = now()
       RETURNING days, capture_content, updated_at`,
      [tenantId, JSON.stringify(days), captureContent],
    );
    return policyOf(rows[0]);
  }

  /** Every tenant with a chain, with its policy (defaults where it has none): the job's work list. */
  async allTenantPolicies(tx: Tx): Promise<Array<{ tenantId: string; policy: RetentionPolicy }>> {
    const rows: Array<PolicyRow & { tenant_id: string; has_policy: boolean }> = await tx.query(
      `SELECT t.tenant_id, p.tenant_id IS NOT NULL AS has_policy, p.days, p.capture_content, p.updated_at
       FROM (SELECT DISTINCT tenant_id FROM ${this.schema}.chain_heads) t
       LEFT JOIN ${this.schema}.retention_policies p ON p.tenant_id = t.tenant_id`,
    );
    return rows.map((row) => ({
      tenantId: row.tenant_id,
      policy: policyOf(row.has_policy ? row : undefined),
    }));
  }
}

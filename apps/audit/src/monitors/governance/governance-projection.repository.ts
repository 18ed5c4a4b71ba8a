import { Injectable } from '@nestjs/common';
import { GovernanceRecordSnapshot } from '@agp/contracts';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { GovernedSubject } from '../engine/detectors/governance-detectors';

export type { GovernedSubject } from '../engine/detectors/governance-detectors';

const G = `${AUDIT_SCHEMA}.monitor_governance`;

@Injectable()
export class GovernanceProjectionRepository {
  /** Keeps the newest revision of each record: a late, older snapshot changes nothing. */
  async apply(tx: Tx, tenantId: string, snapshots: GovernanceRecordSnapshot[]): Promise<void> {
    for (const s of snapshots) {
      await tx.query(
        `INSERT INTO ${G} AS g (tenant_id, record_id, revision, subject_type, subject_id, subject_name, risk_tier,
           tier_severity, owner_user_id, owner_status, review_due_at, attested_at, attestation_stale_at,
           open_incidents, is_deleted)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         ON CONFLICT (tenant_id, record_id) DO UPDATE SET
           revision = excluded.revision, subject_type = excluded.subject_type, subject_id = excluded.subject_id,
           subject_name = excluded.subject_name, risk_tier = excluded.risk_tier,
           tier_severity = excluded.tier_severity, owner_user_id = excluded.owner_user_id,
           owner_status = excluded.owner_status, review_due_at = excluded.review_due_at,
           attested_at = excluded.attested_at, attestation_stale_at = excluded.attestation_stale_at,
           open_incidents = excluded.open_incidents, is_deleted = excluded.is_deleted, updated_at = now()
         WHERE g.revision < excluded.revision`,
        [
          tenantId,
          s.recordId,
          s.revision,
          s.subjectType,
          s.subjectId,
          s.subjectName,
          s.riskTier ?? null,
          s.tierSeverity ?? null,
          s.ownerUserId ?? null,
          s.ownerStatus,
          s.reviewDueAt ?? null,
          s.attestedAt ?? null,
          s.attestationStaleAt ?? null,
          JSON.stringify(s.openIncidents),
          s.isDeleted,
        ],
      );
    }
  }

  async subjectsOf(tx: Tx, tenantId: string): Promise<GovernedSubject[]> {
    return tx.query(
      `SELECT record_id AS "recordId", subject_type AS "subjectType", subject_id AS "subjectId",
              subject_name AS "subjectName", risk_tier AS "riskTier", tier_severity AS "tierSeverity",
              owner_user_id AS "ownerUserId", owner_status AS "ownerStatus", review_due_at AS "reviewDueAt",
              attested_at AS "attestedAt", attestation_stale_at AS "attestationStaleAt",
              open_incidents AS "openIncidents"
       FROM ${G} WHERE tenant_id = $1 AND NOT is_deleted`,
      [tenantId],
    );
  }

  async tenants(tx: Tx): Promise<string[]> {
    const rows: Array<{ tenantId: string }> = await tx.query(
      `SELECT DISTINCT tenant_id AS "tenantId" FROM ${G} WHERE NOT is_deleted`,
    );
    return rows.map((row) => row.tenantId);
  }
}

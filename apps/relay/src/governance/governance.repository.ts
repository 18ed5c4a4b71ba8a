import { Injectable } from '@nestjs/common';
import { GovernedSubjectType, OwnerStatus, Severity } from '@agp/contracts';
import { date, iso, returning, Row, str, Tx } from '@agp/database';

import { GovernanceRecordRow, OpenIncident } from './governance-snapshot';
import { Attestation, Incident, IncidentStatus } from './governance.types';
import { RiskTier } from './risk-tiers';

const S = 'relay';
const SUBJECT_TABLE: Readonly<Record<GovernedSubjectType, string>> = {
  AGENT: 'agents',
  MCP_SERVER: 'mcp_servers',
  LLM_GATEWAY: 'llm_gateways',
  CHANNEL: 'channels',
};

export interface RecordFilter {
  subjectTypes: readonly GovernedSubjectType[];
  subjectId?: string;
  riskTier?: string;
  ownerUserId?: string;
}

export type RecordChanges = Partial<
  Pick<
    GovernanceRecordRow,
    | 'riskTier'
    | 'ownerUserId'
    | 'ownerStatus'
    | 'lastReviewedAt'
    | 'lastReviewedByLabel'
    | 'reviewDueAt'
  >
>;

const RECORD_COLUMNS: Readonly<Record<keyof RecordChanges, string>> = {
  riskTier: 'risk_tier',
  ownerUserId: 'owner_user_id',
  ownerStatus: 'owner_status',
  lastReviewedAt: 'last_reviewed_at',
  lastReviewedByLabel: 'last_reviewed_by_label',
  reviewDueAt: 'review_due_at',
};

function toRecord(row: Row): GovernanceRecordRow {
  return {
    id: String(row.id),
    subjectType: String(row.subject_type) as GovernedSubjectType,
    subjectId: String(row.subject_id),
    subjectName: String(row.subject_name),
    riskTier: str(row.risk_tier),
    ownerUserId: str(row.owner_user_id),
    ownerStatus: String(row.owner_status) as OwnerStatus,
    lastReviewedAt: date(row.last_reviewed_at),
    lastReviewedByLabel: str(row.last_reviewed_by_label),
    reviewDueAt: date(row.review_due_at),
    revision: Number(row.revision),
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
  };
}

function toAttestation(row: Row): Attestation {
  return {
    id: String(row.id),
    recordId: String(row.record_id),
    statement: String(row.statement),
    attestedBy: String(row.attested_by),
    attestedByLabel: String(row.attested_by_label),
    attestedAt: iso(row.attested_at)!,
  };
}

function toIncident(row: Row): Incident {
  return {
    id: String(row.id),
    recordId: String(row.record_id),
    title: String(row.title),
    description: str(row.description) ?? null,
    severity: String(row.severity) as Severity,
    status: String(row.status) as IncidentStatus,
    openedBy: String(row.opened_by),
    openedByLabel: String(row.opened_by_label),
    reportDueAt: iso(row.report_due_at)!,
    report: str(row.report) ?? null,
    reportedByLabel: str(row.reported_by_label) ?? null,
    reportedAt: iso(row.reported_at) ?? null,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

/** Every query on the governance tables; each takes the tenant id (D4). */
@Injectable()
export class GovernanceRepository {
  async tiers(tx: Tx, tenantId: string): Promise<RiskTier[] | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT risk_tiers FROM ${S}.governance_settings WHERE tenant_id = $1`,
      [tenantId],
    );
    return rows[0] ? (rows[0].risk_tiers as RiskTier[]) : undefined;
  }

  async putTiers(tx: Tx, tenantId: string, tiers: readonly RiskTier[]): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.governance_settings (tenant_id, risk_tiers) VALUES ($1, $2)
       ON CONFLICT (tenant_id) DO UPDATE SET risk_tiers = excluded.risk_tiers, updated_at = now()`,
      [tenantId, JSON.stringify(tiers)],
    );
  }

  async subjectName(
    tx: Tx,
    tenantId: string,
    subjectType: GovernedSubjectType,
    subjectId: string,
  ): Promise<string | undefined> {
    const alive = subjectType === 'AGENT' ? ` AND status <> 'DELETED'` : '';
    const rows: Row[] = await tx.query(
      `SELECT name FROM ${S}.${SUBJECT_TABLE[subjectType]} WHERE tenant_id = $1 AND id = $2${alive}`,
      [tenantId, subjectId],
    );
    return str(rows[0]?.name);
  }

  async insertRecord(
    tx: Tx,
    tenantId: string,
    record: Omit<
      GovernanceRecordRow,
      'revision' | 'createdAt' | 'updatedAt' | 'lastReviewedAt' | 'lastReviewedByLabel'
    >,
  ): Promise<GovernanceRecordRow> {
    const rows: Row[] = await tx.query(
      `INSERT INTO ${S}.governance_records
         (id, tenant_id, subject_type, subject_id, subject_name, risk_tier, owner_user_id, owner_status, review_due_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [
        record.id,
        tenantId,
        record.subjectType,
        record.subjectId,
        record.subjectName,
        record.riskTier ?? null,
        record.ownerUserId ?? null,
        record.ownerStatus,
        record.reviewDueAt ?? null,
      ],
    );
    return toRecord(rows[0]);
  }

  async findRecord(
    tx: Tx,
    tenantId: string,
    id: string,
    forUpdate = false,
  ): Promise<GovernanceRecordRow | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${S}.governance_records WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [tenantId, id],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async listRecords(
    tx: Tx,
    tenantId: string,
    filter: RecordFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: GovernanceRecordRow[]; total: number }> {
    const where = `tenant_id = $1 AND subject_type = ANY($2) AND ($3::uuid IS NULL OR subject_id = $3)
      AND ($4::text IS NULL OR risk_tier = $4) AND ($5::uuid IS NULL OR owner_user_id = $5)`;
    const params = [
      tenantId,
      filter.subjectTypes,
      filter.subjectId ?? null,
      filter.riskTier ?? null,
      filter.ownerUserId ?? null,
    ];
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${S}.governance_records WHERE ${where} ORDER BY subject_name, id LIMIT $6 OFFSET $7`,
      [...params, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${S}.governance_records WHERE ${where}`,
      params,
    );
    return { items: rows.map(toRecord), total: Number(count?.n ?? 0) };
  }

  /** Applies the changes and moves the revision on (the audit projection keeps the newest). */
  async updateRecord(
    tx: Tx,
    tenantId: string,
    id: string,
    changes: RecordChanges,
  ): Promise<GovernanceRecordRow> {
    const sets = ['revision = revision + 1', 'updated_at = now()'];
    const params: unknown[] = [tenantId, id];
    for (const [field, column] of Object.entries(RECORD_COLUMNS)) {
      if (field in changes) {
        params.push(changes[field as keyof RecordChanges] ?? null);
        sets.push(`${column} = $${params.length}`);
      }
    }
    const rows = await returning(
      tx,
      `UPDATE ${S}.governance_records SET ${sets.join(', ')} WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      params,
    );
    return toRecord(rows[0]);
  }

  async deleteRecord(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${S}.governance_records WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
  }

  async recordIdsWhere(
    tx: Tx,
    tenantId: string,
    condition: { riskTiers?: string[]; ownerUserId?: string },
  ): Promise<string[]> {
    const rows: Row[] = await tx.query(
      `SELECT id FROM ${S}.governance_records WHERE tenant_id = $1
         AND ($2::text[] IS NULL OR risk_tier = ANY($2)) AND ($3::uuid IS NULL OR owner_user_id = $3)
       ORDER BY id FOR UPDATE`,
      [tenantId, condition.riskTiers ?? null, condition.ownerUserId ?? null],
    );
    return rows.map((row) => String(row.id));
  }

  async latestAttestedAt(
    tx: Tx,
    tenantId: string,
    recordIds: string[],
  ): Promise<Map<string, Date>> {
    const rows: Row[] = await tx.query(
      `SELECT record_id, max(attested_at) AS at FROM ${S}.governance_attestations
       WHERE tenant_id = $1 AND record_id = ANY($2) GROUP BY record_id`,
      [tenantId, recordIds],
    );
    return new Map(rows.map((row) => [String(row.record_id), date(row.at)!]));
  }

  async openIncidents(
    tx: Tx,
    tenantId: string,
    recordIds: string[],
  ): Promise<Map<string, OpenIncident[]>> {
    const rows: Row[] = await tx.query(
      `SELECT id, record_id, title, report_due_at FROM ${S}.governance_incidents
       WHERE tenant_id = $1 AND record_id = ANY($2) AND status = 'OPEN' ORDER BY report_due_at, id`,
      [tenantId, recordIds],
    );
    const byRecord = new Map<string, OpenIncident[]>();
    for (const row of rows) {
      const list = byRecord.get(String(row.record_id)) ?? [];
      list.push({
        id: String(row.id),
        title: String(row.title),
        reportDueAt: date(row.report_due_at)!,
      });
      byRecord.set(String(row.record_id), list);
    }
    return byRecord;
  }

  async insertAttestation(
    tx: Tx,
    tenantId: string,
    attestation: Omit<Attestation, 'attestedAt'>,
  ): Promise<Attestation> {
    const rows: Row[] = await tx.query(
      `INSERT INTO ${S}.governance_attestations (id, tenant_id, record_id, statement, attested_by, attested_by_label)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [
        attestation.id,
        tenantId,
        attestation.recordId,
        attestation.statement,
        attestation.attestedBy,
        attestation.attestedByLabel,
      ],
    );
    return toAttestation(rows[0]);
  }

  async listAttestations(
    tx: Tx,
    tenantId: string,
    recordId: string,
    limit: number,
    offset: number,
  ): Promise<{ items: Attestation[]; total: number }> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${S}.governance_attestations WHERE tenant_id = $1 AND record_id = $2
       ORDER BY attested_at DESC, id LIMIT $3 OFFSET $4`,
      [tenantId, recordId, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${S}.governance_attestations WHERE tenant_id = $1 AND record_id = $2`,
      [tenantId, recordId],
    );
    return { items: rows.map(toAttestation), total: Number(count?.n ?? 0) };
  }

  async insertIncident(
    tx: Tx,
    tenantId: string,
    incident: Pick<
      Incident,
      | 'id'
      | 'recordId'
      | 'title'
      | 'description'
      | 'severity'
      | 'openedBy'
      | 'openedByLabel'
      | 'reportDueAt'
    >,
  ): Promise<Incident> {
    const rows: Row[] = await tx.query(
      `INSERT INTO ${S}.governance_incidents
         (id, tenant_id, record_id, title, description, severity, opened_by, opened_by_label, report_due_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [
        incident.id,
        tenantId,
        incident.recordId,
        incident.title,
        incident.description,
        incident.severity,
        incident.openedBy,
        incident.openedByLabel,
        incident.reportDueAt,
      ],
    );
    return toIncident(rows[0]);
  }

  async findIncident(
    tx: Tx,
    tenantId: string,
    recordId: string,
    id: string,
  ): Promise<Incident | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${S}.governance_incidents WHERE tenant_id = $1 AND record_id = $2 AND id = $3 FOR UPDATE`,
      [tenantId, recordId, id],
    );
    return rows[0] ? toIncident(rows[0]) : undefined;
  }

  async listIncidents(
    tx: Tx,
    tenantId: string,
    recordId: string,
    status: IncidentStatus | undefined,
    limit: number,
    offset: number,
  ): Promise<{ items: Incident[]; total: number }> {
    const where = `tenant_id = $1 AND record_id = $2 AND ($3::text IS NULL OR status = $3)`;
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${S}.governance_incidents WHERE ${where} ORDER BY created_at DESC, id LIMIT $4 OFFSET $5`,
      [tenantId, recordId, status ?? null, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${S}.governance_incidents WHERE ${where}`,
      [tenantId, recordId, status ?? null],
    );
    return { items: rows.map(toIncident), total: Number(count?.n ?? 0) };
  }

  async reportIncident(
    tx: Tx,
    tenantId: string,
    id: string,
    report: string,
    reportedByLabel: string,
  ): Promise<Incident> {
    const rows = await returning(
      tx,
      `UPDATE ${S}.governance_incidents SET status = 'REPORTED', report = $3, reported_by_label = $4,
         reported_at = now(), updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      [tenantId, id, report, reportedByLabel],
    );
    return toIncident(rows[0]);
  }
}

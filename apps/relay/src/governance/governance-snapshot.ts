import { GovernanceRecordSnapshot, GovernedSubjectType, OwnerStatus } from '@agp/contracts';

import { RiskTier, tierNamed } from './risk-tiers';

const DAY_MS = 86_400_000;

export interface GovernanceRecordRow {
  id: string;
  subjectType: GovernedSubjectType;
  subjectId: string;
  subjectName: string;
  riskTier?: string;
  ownerUserId?: string;
  ownerStatus: OwnerStatus;
  lastReviewedAt?: Date;
  lastReviewedByLabel?: string;
  reviewDueAt?: Date;
  revision: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface OpenIncident {
  id: string;
  title: string;
  reportDueAt: Date;
}

export function addDays(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/** G2: one tier cadence after the last review (or creation); no tier means UNCLASSIFIED. */
export function reviewDueAt(
  tiers: readonly RiskTier[],
  record: Pick<GovernanceRecordRow, 'riskTier' | 'lastReviewedAt' | 'createdAt'>,
): Date | undefined {
  const tier = tierNamed(tiers, record.riskTier);
  return tier
    ? addDays(record.lastReviewedAt ?? record.createdAt, tier.reviewCadenceDays)
    : undefined;
}

/** G2: likewise, the latest attestation (or the record's creation) goes stale after the tier's age. */
export function attestationStaleAt(
  tiers: readonly RiskTier[],
  record: Pick<GovernanceRecordRow, 'riskTier' | 'createdAt'>,
  attestedAt: Date | undefined,
): Date | undefined {
  const tier = tierNamed(tiers, record.riskTier);
  return tier ? addDays(attestedAt ?? record.createdAt, tier.attestationMaxAgeDays) : undefined;
}

/** The state the GOVERNANCE_LIFECYCLE event carries after a change (the audit projection's input). */
export function snapshotOf(
  tiers: readonly RiskTier[],
  record: GovernanceRecordRow,
  attestedAt: Date | undefined,
  openIncidents: readonly OpenIncident[],
  isDeleted = false,
): GovernanceRecordSnapshot {
  const tier = tierNamed(tiers, record.riskTier);
  const staleAt = attestationStaleAt(tiers, record, attestedAt);
  return {
    recordId: record.id,
    revision: record.revision,
    subjectType: record.subjectType,
    subjectId: record.subjectId,
    subjectName: record.subjectName,
    ...(record.riskTier ? { riskTier: record.riskTier } : {}),
    ...(tier ? { tierSeverity: tier.severity } : {}),
    ...(record.ownerUserId ? { ownerUserId: record.ownerUserId } : {}),
    ownerStatus: record.ownerStatus,
    ...(record.lastReviewedAt ? { lastReviewedAt: record.lastReviewedAt.toISOString() } : {}),
    ...(record.reviewDueAt ? { reviewDueAt: record.reviewDueAt.toISOString() } : {}),
    ...(attestedAt ? { attestedAt: attestedAt.toISOString() } : {}),
    ...(staleAt ? { attestationStaleAt: staleAt.toISOString() } : {}),
    openIncidents: openIncidents.map((incident) => ({
      incidentId: incident.id,
      title: incident.title,
      reportDueAt: incident.reportDueAt.toISOString(),
    })),
    isDeleted,
  };
}

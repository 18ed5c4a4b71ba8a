import { Severity } from '@agp/contracts';

/** One tier of a tenant's risk classification and the cadences that follow from it (G1). */
export interface RiskTier {
  name: string;
  /** The severity of the governance alerts of a subject in this tier. */
  severity: Severity;
  /** A subject of this tier is reviewed at least this often. */
  reviewCadenceDays: number;
  /** An attestation older than this is stale. */
  attestationMaxAgeDays: number;
  /** An incident's report is due this many days after it was opened (unless given). */
  incidentReportDays: number;
}

/** G1: the tiers every tenant starts with, least to most severe. */
export const DEFAULT_RISK_TIERS: readonly RiskTier[] = [
  {
    name: 'LOW',
    severity: 'LOW',
    reviewCadenceDays: 365,
    attestationMaxAgeDays: 365,
    incidentReportDays: 30,
  },
  {
    name: 'MEDIUM',
    severity: 'MEDIUM',
    reviewCadenceDays: 180,
    attestationMaxAgeDays: 180,
    incidentReportDays: 14,
  },
  {
    name: 'HIGH',
    severity: 'HIGH',
    reviewCadenceDays: 90,
    attestationMaxAgeDays: 90,
    incidentReportDays: 7,
  },
  {
    name: 'CRITICAL',
    severity: 'CRITICAL',
    reviewCadenceDays: 30,
    attestationMaxAgeDays: 30,
    incidentReportDays: 3,
  },
];

/** G3: an incident on a subject with no tier has its report due after this many days. */
export const UNCLASSIFIED_INCIDENT_REPORT_DAYS = 7;

export function tierNamed(
  tiers: readonly RiskTier[],
  name: string | undefined,
): RiskTier | undefined {
  return name === undefined ? undefined : tiers.find((tier) => tier.name === name);
}

export function removedTiers(before: readonly RiskTier[], after: readonly RiskTier[]): string[] {
  const kept = new Set(after.map((tier) => tier.name));
  return before.map((tier) => tier.name).filter((name) => !kept.has(name));
}

export function changedTiers(before: readonly RiskTier[], after: readonly RiskTier[]): string[] {
  return after
    .filter((tier) => {
      const old = tierNamed(before, tier.name);
      return old !== undefined && JSON.stringify(old) !== JSON.stringify(tier);
    })
    .map((tier) => tier.name);
}

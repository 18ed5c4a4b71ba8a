import { GovernedSubjectType, OwnerStatus, Severity } from '@agp/contracts';

/** A governance record as the API answers it. */
export interface GovernanceRecord {
  id: string;
  subjectType: GovernedSubjectType;
  subjectId: string;
  subjectName: string;
  riskTier: string | null;
  ownerUserId: string | null;
  ownerStatus: OwnerStatus;
  lastReviewedAt: string | null;
  lastReviewedByLabel: string | null;
  reviewDueAt: string | null;
  attestedAt: string | null;
  attestationStaleAt: string | null;
  openIncidents: number;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface Attestation {
  id: string;
  recordId: string;
  statement: string;
  attestedBy: string;
  attestedByLabel: string;
  attestedAt: string;
}

export const INCIDENT_STATUSES = ['OPEN', 'REPORTED'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export interface Incident {
  id: string;
  recordId: string;
  title: string;
  description: string | null;
  severity: Severity;
  status: IncidentStatus;
  openedBy: string;
  openedByLabel: string;
  reportDueAt: string;
  report: string | null;
  reportedByLabel: string | null;
  reportedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

import { SEVERITIES, Severity } from '../enums/monitor';
import { AuditableEventData } from '../events/auditable-event.data';

export const GOVERNANCE_CHANGES = [
  'RECORD_CREATED',
  'RECORD_UPDATED',
  'RECORD_DELETED',
  'REVIEWED',
  'ATTESTED',
  'INCIDENT_OPENED',
  'INCIDENT_REPORTED',
  'OWNER_ORPHANED',
  'OWNER_RESTORED',
  'RISK_TIERS_CHANGED',
  // Recorded by kill switches on TENANT and CHANNEL targets (D35).
  'KILL_SWITCH_ENGAGED',
  'KILL_SWITCH_RELEASED',
] as const;
export type GovernanceChange = (typeof GOVERNANCE_CHANGES)[number];

export const GOVERNED_SUBJECT_TYPES = ['AGENT', 'MCP_SERVER', 'LLM_GATEWAY', 'CHANNEL'] as const;
export type GovernedSubjectType = (typeof GOVERNED_SUBJECT_TYPES)[number];

export const OWNER_STATUSES = ['NONE', 'ACTIVE', 'DISABLED', 'DELETED'] as const;
export type OwnerStatus = (typeof OWNER_STATUSES)[number];

/** An incident whose report is still awaited. */
export class OpenIncidentSnapshot {
  @IsUUID()
  incidentId: string;

  @IsString()
  @MaxLength(200)
  title: string;

  @IsISO8601()
  reportDueAt: string;
}

/**
 * The whole governance state of one subject after a change, so that a consumer keeps its own
 * projection from the latest revision alone (the audit service's governance detectors, D4).
 */
export class GovernanceRecordSnapshot {
  @IsUUID()
  recordId: string;

  /** Grows with every change of the record: an older snapshot arriving late is ignored. */
  @IsInt()
  @Min(1)
  revision: number;

  @IsIn(GOVERNED_SUBJECT_TYPES)
  subjectType: GovernedSubjectType;

  @IsUUID()
  subjectId: string;

  @IsString()
  @MinLength(1)
  @MaxLength(200)
  subjectName: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  riskTier?: string;

  /** The severity the tenant gave the tier: the severity of this subject's governance alerts. */
  @IsOptional()
  @IsIn(SEVERITIES)
  tierSeverity?: Severity;

  @IsOptional()
  @IsUUID()
  ownerUserId?: string;

  @IsIn(OWNER_STATUSES)
  ownerStatus: OwnerStatus;

  @IsOptional()
  @IsISO8601()
  lastReviewedAt?: string;

  @IsOptional()
  @IsISO8601()
  reviewDueAt?: string;

  @IsOptional()
  @IsISO8601()
  attestedAt?: string;

  /** When the latest attestation goes stale (the tier's attestation cadence after it). */
  @IsOptional()
  @IsISO8601()
  attestationStaleAt?: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => OpenIncidentSnapshot)
  openIncidents: OpenIncidentSnapshot[];

  /** The record was deleted: its gaps close. */
  @IsBoolean()
  isDeleted: boolean;
}

/**
 * `GOVERNANCE_LIFECYCLE`: every change of a governance record, attestation, incident or of the
 * tenant's risk tiers (issue 17); kill switches on TENANT and CHANNEL record it too (D35), without
 * a record.
 */
export class GovernanceLifecycleData extends AuditableEventData {
  @IsOptional()
  @IsIn(GOVERNANCE_CHANGES)
  change?: GovernanceChange;

  @IsOptional()
  @ValidateNested()
  @Type(() => GovernanceRecordSnapshot)
  record?: GovernanceRecordSnapshot;
}

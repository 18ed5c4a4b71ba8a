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

export class OpenIncidentSnapshot {
  @IsUUID()
  incidentId: string;

  @IsString()
  @MaxLength(200)
  title: string;

  @IsISO8601()
  reportDueAt: string;
}

/** The whole state after a change: a consumer's projection needs the latest revision alone (D4). */
export class GovernanceRecordSnapshot {
  @IsUUID()
  recordId: string;

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

  @IsOptional()
  @IsISO8601()
  attestationStaleAt?: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => OpenIncidentSnapshot)
  openIncidents: OpenIncidentSnapshot[];

  @IsBoolean()
  isDeleted: boolean;
}

/** Issue 17; kill switches on TENANT and CHANNEL record it too, without a record (D35). */
export class GovernanceLifecycleData extends AuditableEventData {
  @IsOptional()
  @IsIn(GOVERNANCE_CHANGES)
  change?: GovernanceChange;

  @IsOptional()
  @ValidateNested()
  @Type(() => GovernanceRecordSnapshot)
  record?: GovernanceRecordSnapshot;
}

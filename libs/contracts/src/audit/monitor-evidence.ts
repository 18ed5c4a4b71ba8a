import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDateString,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

import { ACTIONS, Action } from '../enums/policy';
import {
  AGGREGATIONS,
  ANOMALY_DIRECTIONS,
  Aggregation,
  AnomalyDirection,
  FIRST_SEEN_OBSERVATIONS,
  FirstSeenObservation,
  GOVERNANCE_GAPS,
  GROUP_BYS,
  GovernanceGap,
  GroupBy,
  INCIDENT_TYPES,
  IncidentType,
  MONITOR_METRICS,
  MONITOR_TYPES,
  MonitorMetric,
  MonitorType,
  POLICY_METRICS,
  PolicyMetric,
  SUBJECT_TYPES,
  SubjectType,
  TOOL_DEFINITION_CHANGES,
  TimeWindow,
  ToolDefinitionChange,
  WINDOWS,
} from '../enums/monitor';

export const EVIDENCE_KINDS = [
  'CUSTOM_QUERY',
  'DORMANT_REACTIVATION',
  'ENTITY_VOLUME',
  'FIRST_SEEN',
  'GOVERNANCE_GAP',
  'INFRASTRUCTURE_INCIDENT',
  'POLICY_METRIC',
  'TENANT_ACTION_SPIKE',
  'TOOL_DEFINITION',
  'EVALUATION_RUN',
  'BUDGET',
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

const INT32_MAX = 2_147_483_647;
const FINITE = { allowNaN: false, allowInfinity: false };

export class CustomQueryEvidence {
  @IsIn(['CUSTOM_QUERY']) kind: 'CUSTOM_QUERY';
  @IsIn(MONITOR_TYPES) monitorType: MonitorType;
  @IsIn(MONITOR_METRICS) metric: MonitorMetric;
  @IsIn(AGGREGATIONS) aggregation: Aggregation;
  @IsIn(WINDOWS) window: TimeWindow;
  @IsIn(GROUP_BYS) groupBy: GroupBy;
  @IsOptional() @IsNumber(FINITE) observedValue?: number;
  @IsOptional() @IsNumber(FINITE) comparisonValue?: number;
  @IsOptional() @IsNumber(FINITE) threshold?: number;
  @IsOptional() @IsString() subjectLabel?: string;
}

export class DormantReactivationEvidence {
  @IsIn(['DORMANT_REACTIVATION']) kind: 'DORMANT_REACTIVATION';
  @IsIn(SUBJECT_TYPES) subjectType: SubjectType;
  @IsUUID() subjectId: string;
  @IsInt() @Min(0) @Max(INT32_MAX) dormantDays: number;
  @IsInt() @Min(0) recentEventCount: number;
}

export abstract class VolumeFigures {
  @IsIn(SUBJECT_TYPES) subjectType: SubjectType;
  @IsUUID() subjectId: string;
  @IsIn(ANOMALY_DIRECTIONS) direction: AnomalyDirection;
  @IsNumber(FINITE) observedTotal: number;
  @IsNumber(FINITE) observedPerMinute: number;
  @IsNumber(FINITE) baselinePerMinute: number;
  @IsNumber(FINITE) ratio: number;
  @IsInt() @Min(0) @Max(INT32_MAX) sampleMinutes: number;
}

export class EntityVolumeEvidence extends VolumeFigures {
  @IsIn(['ENTITY_VOLUME']) kind: 'ENTITY_VOLUME';
}

export class InfrastructureIncidentEvidence extends VolumeFigures {
  @IsIn(['INFRASTRUCTURE_INCIDENT']) kind: 'INFRASTRUCTURE_INCIDENT';
  @IsIn(INCIDENT_TYPES) incidentType: IncidentType;
}

export class FirstSeenEvidence {
  @IsIn(['FIRST_SEEN']) kind: 'FIRST_SEEN';
  @IsIn(SUBJECT_TYPES) subjectType: SubjectType;
  @IsUUID() subjectId: string;
  @IsIn(FIRST_SEEN_OBSERVATIONS) observation: FirstSeenObservation;
  @IsString() @MinLength(1) key: string;
  @IsInt() @Min(0) @Max(INT32_MAX) lookbackDays: number;
  @IsInt() @Min(0) occurrencesInRecent: number;
}

export class GovernanceGapEvidence {
  @IsIn(['GOVERNANCE_GAP']) kind: 'GOVERNANCE_GAP';
  @IsIn(SUBJECT_TYPES) subjectType: SubjectType;
  @IsUUID() subjectId: string;
  @IsString() @MinLength(1) subjectName: string;
  @IsIn(GOVERNANCE_GAPS) gap: GovernanceGap;
  @IsString() @MinLength(1) riskTier: string;
  @IsOptional() @IsDateString() reviewDueAt?: string;
  @IsOptional() @IsDateString() attestedAt?: string;
  @IsOptional() @IsInt() @Min(-INT32_MAX) @Max(INT32_MAX) daysOverdue?: number;
}

export class PolicyMetricEvidence {
  @IsIn(['POLICY_METRIC']) kind: 'POLICY_METRIC';
  @IsUUID() policyId: string;
  @IsIn(POLICY_METRICS) metric: PolicyMetric;
  @IsIn(ANOMALY_DIRECTIONS) direction: AnomalyDirection;
  @IsNumber(FINITE) observedTotal: number;
  @IsNumber(FINITE) observedPerMinute: number;
  @IsNumber(FINITE) baselinePerMinute: number;
  @IsNumber(FINITE) ratio: number;
  @IsInt() @Min(0) @Max(INT32_MAX) sampleMinutes: number;
}

export class PolicyContribution {
  @IsUUID() policyId: string;
  @IsInt() @Min(0) count: number;
  @IsNumber(FINITE) @Min(0) @Max(100) percentage: number;
}

export class TenantActionSpikeEvidence {
  @IsIn(['TENANT_ACTION_SPIKE']) kind: 'TENANT_ACTION_SPIKE';
  @IsIn(ACTIONS) action: Action;
  @IsIn(ANOMALY_DIRECTIONS) direction: AnomalyDirection;
  @IsNumber(FINITE) observedTotal: number;
  @IsNumber(FINITE) observedPerMinute: number;
  @IsNumber(FINITE) baselinePerMinute: number;
  @IsNumber(FINITE) ratio: number;
  @IsInt() @Min(0) @Max(INT32_MAX) sampleMinutes: number;

  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => PolicyContribution)
  topContributors: PolicyContribution[];

  @IsInt() @Min(0) unattributedCount: number;
}

/**
 * D51, beyond the specification (monitors.md M59): a tool definition that changed after it was
 * pinned, or a tool name two servers of one subscriber offer.
 */
export class ToolDefinitionEvidence {
  @IsIn(['TOOL_DEFINITION']) kind: 'TOOL_DEFINITION';
  @IsIn(SUBJECT_TYPES) subjectType: SubjectType;
  @IsUUID() subjectId: string;
  @IsString() @MinLength(1) @MaxLength(200) tool: string;
  @IsIn(TOOL_DEFINITION_CHANGES) change: ToolDefinitionChange;
  @IsOptional() @IsArray() @ArrayMaxSize(10) @IsString({ each: true }) changedFields?: string[];
  @IsOptional() @Matches(/^[0-9a-f]{64}$/) definitionHash?: string;
  @IsOptional() @Matches(/^[0-9a-f]{64}$/) pinnedHash?: string;
  @IsOptional() @IsUUID() otherMcpServerId?: string;
  @IsOptional() @IsUUID() subscriberId?: string;
}

/** M76: the failed run of an evaluation pack (beyond the specification). */
export class EvaluationRunEvidence {
  @IsIn(['EVALUATION_RUN']) kind: 'EVALUATION_RUN';
  @IsIn(SUBJECT_TYPES) subjectType: SubjectType;
  @IsUUID() subjectId: string;
  @IsUUID() packId: string;
  @IsString() @MaxLength(200) packName: string;
  @IsUUID() runId: string;
  @IsIn(['COMPLETED', 'FAILED']) status: 'COMPLETED' | 'FAILED';
  @IsInt() @Min(0) failed: number;
  @IsInt() @Min(0) evaluationCount: number;
  @IsOptional() @IsString() @MaxLength(500) errorMessage?: string;
}

/** D60, spend.md SP11 (beyond the specification): a budget whose soft limit was reached. */
export class BudgetEvidence {
  @IsIn(['BUDGET']) kind: 'BUDGET';
  @IsIn(SUBJECT_TYPES) subjectType: SubjectType;
  @IsUUID() subjectId: string;
  @IsUUID() budgetId: string;
  @IsIn(['TENANT', 'AGENT', 'LLM_GATEWAY', 'SUBSCRIPTION']) scope: string;
  @IsOptional() @IsUUID() targetId?: string;
  @IsIn(['DAY', 'MONTH', 'ROLLING_24H']) period: string;
  @IsIn(['USD', 'TOKENS']) unit: string;
  /** Decimal strings: USD, or a whole number of tokens. */
  @Matches(/^[0-9]{1,20}(\.[0-9]{1,12})?$/) softLimit: string;
  @Matches(/^[0-9]{1,20}(\.[0-9]{1,12})?$/) used: string;
}

export type MonitorEvidence =
  | BudgetEvidence
  | CustomQueryEvidence
  | EvaluationRunEvidence
  | DormantReactivationEvidence
  | EntityVolumeEvidence
  | FirstSeenEvidence
  | GovernanceGapEvidence
  | InfrastructureIncidentEvidence
  | PolicyMetricEvidence
  | TenantActionSpikeEvidence
  | ToolDefinitionEvidence;

export const EVIDENCE_CLASSES: Readonly<Record<EvidenceKind, new () => object>> = {
  CUSTOM_QUERY: CustomQueryEvidence,
  DORMANT_REACTIVATION: DormantReactivationEvidence,
  ENTITY_VOLUME: EntityVolumeEvidence,
  FIRST_SEEN: FirstSeenEvidence,
  GOVERNANCE_GAP: GovernanceGapEvidence,
  INFRASTRUCTURE_INCIDENT: InfrastructureIncidentEvidence,
  POLICY_METRIC: PolicyMetricEvidence,
  TENANT_ACTION_SPIKE: TenantActionSpikeEvidence,
  TOOL_DEFINITION: ToolDefinitionEvidence,
  EVALUATION_RUN: EvaluationRunEvidence,
  BUDGET: BudgetEvidence,
};

export const EVIDENCE_DISCRIMINATOR = {
  discriminator: {
    property: 'kind',
    subTypes: Object.entries(EVIDENCE_CLASSES).map(([name, value]) => ({ name, value })),
  },
  keepDiscriminatorProperty: true,
};

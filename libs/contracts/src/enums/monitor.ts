export const DETECTORS = [
  'POLICY_INVOCATION_ANOMALY',
  'POLICY_BLOCK_ANOMALY',
  'POLICY_WARN_ANOMALY',
  'POLICY_HITL_HOLD_ANOMALY',
  'AGENT_VOLUME_ANOMALY',
  'USER_VOLUME_ANOMALY',
  'MCP_SERVER_VOLUME_ANOMALY',
  'LLM_GATEWAY_VOLUME_ANOMALY',
  'CHANNEL_VOLUME_ANOMALY',
  'TENANT_ERROR_SPIKE',
  'TENANT_WARN_SPIKE',
  'TENANT_HITL_SPIKE',
  'LLM_PROVIDER_ERROR_RATE_SPIKE',
  'LLM_GATEWAY_FAILOVER_SPIKE',
  'MCP_SERVER_ERROR_RATE_SPIKE',
  'DORMANT_AGENT_REACTIVATION',
  'DORMANT_USER_REACTIVATION',
  'NOVEL_TOOL_CALL',
  'NEW_MCP_SERVER_BINDING',
  'GOVERNANCE_REVIEW_DUE',
  'GOVERNANCE_ORPHANED_OWNER',
  'GOVERNANCE_UNCLASSIFIED_ACTIVE',
  'GOVERNANCE_STALE_ATTESTATION',
  'GOVERNANCE_INCIDENT_REPORT_DUE',
  // D51: beyond the specification (monitors.md M59).
  'TOOL_DEFINITION_DRIFT',
  // Beyond the specification (monitors.md M76): a scheduled or other pack run failed.
  'EVALUATION_RUN_FAILED',
  // D60, beyond the specification (spend.md SP11): a budget's soft limit reached in its window.
  'BUDGET_SOFT_LIMIT',
] as const;
export type Detector = (typeof DETECTORS)[number];

export const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const ANOMALY_DIRECTIONS = ['SPIKE', 'DROP'] as const;
export type AnomalyDirection = (typeof ANOMALY_DIRECTIONS)[number];

export const ALERT_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED', 'DISMISSED'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const ALERT_LIFECYCLE_ACTIONS = [
  'ACKNOWLEDGED',
  'RESOLVED',
  'DISMISSED',
  'REOPENED',
] as const;
export type AlertLifecycleAction = (typeof ALERT_LIFECYCLE_ACTIONS)[number];

export const DISMISS_REASONS = ['EXPECTED', 'FALSE_POSITIVE', 'KNOWN_ISSUE'] as const;
export type DismissReason = (typeof DISMISS_REASONS)[number];

/** D28: `subject.type` of an alert takes the evidence `subjectType` values. */
export const SUBJECT_TYPES = [
  'TENANT',
  'AGENT',
  'USER',
  'LLM_PROVIDER',
  'LLM_GATEWAY',
  'MCP_SERVER',
  'POLICY',
  'CHANNEL',
] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

export const MONITOR_TYPES = ['SYSTEM_TEMPLATE', 'THRESHOLD', 'CHANGE', 'OUTLIER'] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];

export const MONITOR_METRICS = [
  'REQUESTS',
  'BLOCKS',
  'WARNS',
  'MASKS',
  'HITL_HOLDS',
  'ERRORS',
  'ERROR_RATE_PCT',
  'LATENCY_AVG_MS',
  'LATENCY_P50_MS',
  'LATENCY_P95_MS',
  'LATENCY_P99_MS',
  'LLM_CALLS',
  'LLM_FAILOVERS',
  'TOOL_CALLS',
  'MCP_REQUESTS',
  'USER_DISTINCT',
  'AGENT_DISTINCT',
] as const;
export type MonitorMetric = (typeof MONITOR_METRICS)[number];

export const AGGREGATIONS = [
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'P50',
  'P95',
  'P99',
  'COUNT',
  'COUNT_DISTINCT',
  'RATE_PER_MIN',
] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export const WINDOWS = [
  'LAST_5M',
  'LAST_15M',
  'LAST_1H',
  'LAST_4H',
  'LAST_24H',
  'LAST_7D',
] as const;
export type TimeWindow = (typeof WINDOWS)[number];

export const WINDOW_MINUTES: Readonly<Record<TimeWindow, number>> = {
  LAST_5M: 5,
  LAST_15M: 15,
  LAST_1H: 60,
  LAST_4H: 240,
  LAST_24H: 1_440,
  LAST_7D: 10_080,
};

export const GROUP_BYS = [
  'NONE',
  'AGENT',
  'USER',
  'MCP_SERVER',
  'LLM_GATEWAY',
  'LLM_PROVIDER',
  'CHANNEL',
  'POLICY',
] as const;
export type GroupBy = (typeof GROUP_BYS)[number];

export const POLICY_METRICS = ['INVOCATIONS', 'BLOCKS', 'WARNS', 'HITL_HOLDS'] as const;
export type PolicyMetric = (typeof POLICY_METRICS)[number];

export const FIRST_SEEN_OBSERVATIONS = ['TOOL_CALL', 'MCP_SERVER_BINDING'] as const;
export type FirstSeenObservation = (typeof FIRST_SEEN_OBSERVATIONS)[number];

/** D51: what a TOOL_DEFINITION_DRIFT alert found (the MCP_LIFECYCLE `change` it came from). */
export const TOOL_DEFINITION_CHANGES = ['TOOL_DEFINITION_CHANGED', 'TOOL_NAME_SHADOWED'] as const;
export type ToolDefinitionChange = (typeof TOOL_DEFINITION_CHANGES)[number];

export const GOVERNANCE_GAPS = [
  'REVIEW_DUE',
  'ORPHANED_OWNER',
  'UNCLASSIFIED_ACTIVE',
  'STALE_ATTESTATION',
  'INCIDENT_REPORT_DUE',
] as const;
export type GovernanceGap = (typeof GOVERNANCE_GAPS)[number];

export const INCIDENT_TYPES = ['ERROR_RATE', 'FAILOVER'] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

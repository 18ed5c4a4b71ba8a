/** Operation 6's types with D25's detection kinds, then ours (in BEYOND_SPECIFICATION). */
export const AUDIT_EVENT_TYPES = [
  'COMMUNICATION_AUDIT',
  'VALIDATION_RESULT',
  'X402_PAYMENT_REQUIRED',
  'X402_PAYMENT_SUCCESS',
  'X402_PAYMENT_ATTEMPT',
  'X402_PAYMENT_REJECTED',
  'REGEX_DETECTION',
  'PII_DETECTION',
  'SECRET_DETECTION',
  'PROMPT_INJECTION_DETECTION',
  'RATE_LIMIT',
  'SKILL_RESTRICTION',
  'HITL',
  'HITL_GUARD',
  'HITL_RESOLUTION',
  'HITL_RELEASED',
  'POLICY_LIFECYCLE',
  'AGENT_LIFECYCLE',
  'MCP_LIFECYCLE',
  'LLM_LIFECYCLE',
  'CREDENTIAL_ROTATION',
  'GOVERNANCE_LIFECYCLE',
  'LLM_GATEWAY_CALL',
  'LLM_GATEWAY_FAILOVER',
  'MONITOR_ALERT_TRIGGERED',
  'MONITOR_ALERT_LIFECYCLE_CHANGED',
  'MONITOR_CONFIG_CHANGED',
  'MONITOR_MUTED',
  'MONITOR_UNMUTED',
  'MONITOR_DOWNTIME_SCHEDULED',
  'MONITOR_DOWNTIME_CANCELLED',
  'MONITOR_CREATED',
  'MONITOR_DELETED',
  'RETENTION_POLICY_CHANGED',
  'AI_DISCLOSURE',
  'SYNTHETIC_CONTENT_MARKING',
  'ADMIN_CHANGE',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** Our additions to the specification's value sets, each with its decision (D42). */
export const BEYOND_SPECIFICATION: Readonly<Record<string, string>> = {
  ADMIN_CHANGE:
    'Beyond the specification (D42): an administrative change (users, tenants, groups, roles, ' +
    'identity providers, service accounts, channels, traffic and other settings) with its actor, ' +
    'target and changed fields, secrets as "[redacted]".',
};

import { AUDIT_EVENT_TYPES, AuditEventType } from '@agp/contracts';

/**
 * Event families (A2): the unit of retention and of the integrity chain. Each tenant has one hash
 * chain per family, so a family's retention removes a prefix of its own chain only.
 */
export const EVENT_FAMILIES = [
  'TRAFFIC',
  'DETECTION',
  'PAYMENT',
  'HITL',
  'LIFECYCLE',
  'MONITOR',
] as const;
export type EventFamily = (typeof EVENT_FAMILIES)[number];

const FAMILY_OF: Record<AuditEventType, EventFamily> = {
  COMMUNICATION_AUDIT: 'TRAFFIC',
  VALIDATION_RESULT: 'TRAFFIC',
  RATE_LIMIT: 'TRAFFIC',
  SKILL_RESTRICTION: 'TRAFFIC',
  LLM_GATEWAY_CALL: 'TRAFFIC',
  LLM_GATEWAY_FAILOVER: 'TRAFFIC',
  AI_DISCLOSURE: 'TRAFFIC',
  SYNTHETIC_CONTENT_MARKING: 'TRAFFIC',
  REGEX_DETECTION: 'DETECTION',
  PII_DETECTION: 'DETECTION',
  SECRET_DETECTION: 'DETECTION',
  PROMPT_INJECTION_DETECTION: 'DETECTION',
  X402_PAYMENT_REQUIRED: 'PAYMENT',
  X402_PAYMENT_SUCCESS: 'PAYMENT',
  X402_PAYMENT_ATTEMPT: 'PAYMENT',
  X402_PAYMENT_REJECTED: 'PAYMENT',
  HITL: 'HITL',
  HITL_GUARD: 'HITL',
  HITL_RESOLUTION: 'HITL',
  HITL_RELEASED: 'HITL',
  POLICY_LIFECYCLE: 'LIFECYCLE',
  AGENT_LIFECYCLE: 'LIFECYCLE',
  MCP_LIFECYCLE: 'LIFECYCLE',
  LLM_LIFECYCLE: 'LIFECYCLE',
  CREDENTIAL_ROTATION: 'LIFECYCLE',
  GOVERNANCE_LIFECYCLE: 'LIFECYCLE',
  RETENTION_POLICY_CHANGED: 'LIFECYCLE',
  // D42: administrative changes are kept as long as the specification's lifecycle types.
  ADMIN_CHANGE: 'LIFECYCLE',
  MONITOR_ALERT_TRIGGERED: 'MONITOR',
  MONITOR_ALERT_LIFECYCLE_CHANGED: 'MONITOR',
  MONITOR_CONFIG_CHANGED: 'MONITOR',
  MONITOR_MUTED: 'MONITOR',
  MONITOR_UNMUTED: 'MONITOR',
  MONITOR_DOWNTIME_SCHEDULED: 'MONITOR',
  MONITOR_DOWNTIME_CANCELLED: 'MONITOR',
  MONITOR_CREATED: 'MONITOR',
  MONITOR_DELETED: 'MONITOR',
};

export function familyOf(type: AuditEventType): EventFamily {
  return FAMILY_OF[type];
}

/** Days kept when a tenant has not chosen (A3). */
export const DEFAULT_RETENTION_DAYS: Record<EventFamily, number> = {
  TRAFFIC: 90,
  DETECTION: 365,
  PAYMENT: 2_555,
  HITL: 365,
  LIFECYCLE: 2_555,
  MONITOR: 365,
};

export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3_650;

export function typesOfFamily(family: EventFamily): AuditEventType[] {
  return AUDIT_EVENT_TYPES.filter((type) => FAMILY_OF[type] === family);
}

import type { Action, AuditEventType, Protocol } from '@agp/contracts';

/**
 * The contracts' value lists, for the filters. `@agp/contracts` is a Node package (payload
 * classes with decorators), so the console takes only its types and checks these lists against
 * them: a value added there and not here fails this build.
 */
type Exhaustive<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;

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
] as const satisfies readonly AuditEventType[];
export const PROTOCOLS = [
  'REST',
  'JSONRPC',
  'GRPC',
  'CHANNEL',
  'MCP',
] as const satisfies readonly Protocol[];
export const ACTIONS = [
  'LOG',
  'MASK',
  'BLOCK',
  'WARN',
  'HUMAN_REVIEW_REQUIRED',
  'ERROR',
] as const satisfies readonly Action[];

export const LISTS_ARE_COMPLETE: [
  Exhaustive<AuditEventType, (typeof AUDIT_EVENT_TYPES)[number]>,
  Exhaustive<Protocol, (typeof PROTOCOLS)[number]>,
  Exhaustive<Action, (typeof ACTIONS)[number]>,
] = [true, true, true];

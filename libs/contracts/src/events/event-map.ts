import { AdminChangeData } from '../admin/admin-change.event';
import { MonitorAlertLifecycleChangedData } from '../audit/monitor-alert-lifecycle-changed.event';
import { MonitorAlertTriggeredData } from '../audit/monitor-alert-triggered.event';
import { MonitorConfigChangedData } from '../audit/monitor-config-changed.event';
import { AUDIT_EVENT_TYPES, AuditEventType } from '../enums/audit-event-type';
import { GovernanceLifecycleData } from '../relay/governance-lifecycle.event';
import { McpGrantsChangedData } from '../relay/mcp-grants-changed.event';
import { PolicyLifecycleData } from '../relay/policy-lifecycle.event';
import { PolicyShadowDecisionData } from '../relay/policy-shadow-decision.event';
import { SubscriptionChangedData } from '../relay/subscription-changed.event';
import { AgentLifecycleData } from '../tenant-auth/agent-lifecycle.event';
import { CredentialRotationData } from '../tenant-auth/credential-rotation.event';
import { TenantLifecycleData } from '../tenant-auth/tenant-lifecycle.event';
import { UserLifecycleData } from '../tenant-auth/user-lifecycle.event';
import { AuditableEventData } from './auditable-event.data';

type PayloadClass = new () => AuditableEventData;

const SPECIFIC_PAYLOADS = {
  TENANT_LIFECYCLE: TenantLifecycleData,
  AGENT_LIFECYCLE: AgentLifecycleData,
  CREDENTIAL_ROTATION: CredentialRotationData,
  USER_LIFECYCLE: UserLifecycleData,
  POLICY_LIFECYCLE: PolicyLifecycleData,
  POLICY_SHADOW_DECISION: PolicyShadowDecisionData,
  GOVERNANCE_LIFECYCLE: GovernanceLifecycleData,
  SUBSCRIPTION_CHANGED: SubscriptionChangedData,
  MCP_GRANTS_CHANGED: McpGrantsChangedData,
  MONITOR_ALERT_TRIGGERED: MonitorAlertTriggeredData,
  MONITOR_ALERT_LIFECYCLE_CHANGED: MonitorAlertLifecycleChangedData,
  MONITOR_CONFIG_CHANGED: MonitorConfigChangedData,
  ADMIN_CHANGE: AdminChangeData,
} satisfies Record<string, PayloadClass>;

type SpecificEventType = keyof typeof SPECIFIC_PAYLOADS;

/** Every event type that travels between services: the audit event types (D5) and a few more. */
export type EventType = AuditEventType | SpecificEventType;

export type EventData<T extends EventType> = T extends SpecificEventType
  ? InstanceType<(typeof SPECIFIC_PAYLOADS)[T]>
  : AuditableEventData;

/** Current contract version of each event type; a breaking change is a new version (STYLE §5). */
export const EVENT_VERSION = 1;

export const EVENT_TYPES: readonly EventType[] = [
  ...new Set<EventType>([
    ...AUDIT_EVENT_TYPES,
    ...(Object.keys(SPECIFIC_PAYLOADS) as SpecificEventType[]),
  ]),
];

export function payloadClassOf(type: EventType): PayloadClass {
  return (SPECIFIC_PAYLOADS as Record<string, PayloadClass>)[type] ?? AuditableEventData;
}

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

export function isAuditEventType(value: string): value is AuditEventType {
  return (AUDIT_EVENT_TYPES as readonly string[]).includes(value);
}

import { EventEnvelope, EventType, MonitorAlertTriggeredData } from '@agp/contracts';

import { Notice, NotificationSeverity, NOTIFICATION_SEVERITIES } from './notification.types';

/** W14, D35: holds, new alerts, and kill-switch lifecycle events. */
export const NOTIFICATION_SOURCE_TYPES = [
  'HITL',
  'MONITOR_ALERT_TRIGGERED',
  'AGENT_LIFECYCLE',
  'MCP_LIFECYCLE',
  'LLM_LIFECYCLE',
  'GOVERNANCE_LIFECYCLE',
] as const satisfies readonly EventType[];
export type NotificationSourceType = (typeof NOTIFICATION_SOURCE_TYPES)[number];

/** The console's pages that open what a notice is about (D58), under PUBLIC_BASE_URL. */
export const CONSOLE_PATHS = {
  hold: (hitlRequestId: string): string => `/review/${encodeURIComponent(hitlRequestId)}`,
  alert: (alertId: string): string => `/alerts/${encodeURIComponent(alertId)}`,
} as const;

type Details = Record<string, unknown> | undefined;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** D58, W17: only ids, kinds, severities and a link; never held or masked content. */
export function noticeOf(event: EventEnvelope, publicBaseUrl: string): Notice | undefined {
  const data = event.data as Record<string, unknown> & { details?: Details };
  const details = data.details;
  switch (event.type as NotificationSourceType) {
    case 'HITL': {
      const hitlRequestId = text(details?.hitlRequestId);
      if (!hitlRequestId || details?.status !== 'PENDING') {
        return undefined;
      }
      return {
        event: 'HITL_REQUEST_CREATED',
        link: `${publicBaseUrl}${CONSOLE_PATHS.hold(hitlRequestId)}`,
        data: compact({
          hitlRequestId,
          protocol: text(data.protocol),
          direction: text(details?.direction),
          expiresAt: text(details?.expiresAt),
          policyIds: Array.isArray(data.policyIds) ? data.policyIds.map(String) : undefined,
        }),
      };
    }
    case 'MONITOR_ALERT_TRIGGERED': {
      const alert = event.data as MonitorAlertTriggeredData;
      return {
        event: 'ALERT_RAISED',
        severity: alert.severity,
        link: `${publicBaseUrl}${CONSOLE_PATHS.alert(alert.alertId)}`,
        data: compact({
          alertId: alert.alertId,
          severity: alert.severity,
          detector: alert.detector,
          monitorId: alert.monitorId,
          subjectType: alert.subject?.type,
          subjectId: alert.subject?.id,
          detectedAt: alert.detectedAt,
        }),
      };
    }
    case 'AGENT_LIFECYCLE':
    case 'MCP_LIFECYCLE':
    case 'LLM_LIFECYCLE':
    case 'GOVERNANCE_LIFECYCLE': {
      const killSwitchId = text(details?.killSwitchId);
      if (details?.change !== 'KILL_SWITCH_ENGAGED' || !killSwitchId) {
        return undefined;
      }
      return {
        event: 'KILL_SWITCH_ENGAGED',
        data: compact({
          killSwitchId,
          scope: text(details.scope),
          targetId: text(details.targetId),
        }),
      };
    }
    default:
      return undefined;
  }
}

export function meetsSeverity(
  severity: NotificationSeverity | undefined,
  minimum: NotificationSeverity | null,
): boolean {
  if (!minimum || !severity) {
    return true;
  }
  return NOTIFICATION_SEVERITIES.indexOf(severity) >= NOTIFICATION_SEVERITIES.indexOf(minimum);
}

function compact(
  fields: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string | string[]] => !!entry[1]),
  );
}

import type { AlertStatus, Severity, TimeWindow } from '@agp/contracts';

import type {
  AlertResponse,
  AuditEventResponseDto,
  Dashboard,
  EventPage,
  LogPage,
  TraceResponse,
  TraceView,
  VerificationResult,
} from './contracts/audit';
import type {
  HitlRequestResponse,
  HitlStatus,
  HopDecision,
  PolicyBindingResponse,
  ReplayResponse,
  PolicyGroupResponse,
  PolicyVersionResponse,
} from './contracts/relay';
import { accessToken } from '../auth/session';
import { Page, api, query } from './client';

/**
 * The typed API of the pages: response types are generated from the services' published answer
 * schemas (`./contracts`, F27), so a change of a response shape fails the console's build once
 * the contracts are regenerated, and their spec fails until they are.
 */
export interface PermissionEntry {
  entity: string;
  permission: 'READ' | 'WRITE' | 'DELETE' | 'ADMIN';
}

export type AlertAction = 'acknowledge' | 'resolve' | 'reopen' | 'dismiss';
export type DismissReason = 'EXPECTED' | 'FALSE_POSITIVE' | 'KNOWN_ISSUE';

/** The audit event filters of D17 plus the explorer's own (issue 5). */
export interface EventFilters {
  eventType?: string;
  protocol?: string;
  action?: string;
  from?: string;
  to?: string;
  correlationId?: string;
  actorId?: string;
  /** D42: an administrative change's target is its sink (`USER`, `CHANNEL` … and the id). */
  sinkType?: string;
  sinkId?: string;
}

/** D54's log search filters; `attr` is `key=value`. */
export interface LogFilters {
  traceId?: string;
  service?: string;
  agentId?: string;
  severity?: string;
  attr?: string;
}

export interface NewPolicyVersion {
  regoSource: string;
  version?: string;
  description?: string;
}

const post = <T>(path: string, body: unknown = {}) =>
  api<T>(path, { method: 'POST', body: JSON.stringify(body) });

export const platform = {
  permissions: () => api<PermissionEntry[]>('/tenant-auth/v1/permissions'),
  dashboard: (window: TimeWindow) => api<Dashboard>(`/audit/v1/dashboard${query({ window })}`),

  alerts: (filters: {
    status?: AlertStatus;
    severity?: Severity;
    detector?: string;
    page?: number;
    pageSize?: number;
  }) => api<Page<AlertResponse>>(`/audit/v1/monitors/alerts${query(filters)}`),
  alert: (id: string) => api<AlertResponse>(`/audit/v1/monitors/alerts/${id}`),
  alertAction: (id: string, action: AlertAction, note?: string, reason?: DismissReason) =>
    post<AlertResponse>(`/audit/v1/monitors/alerts/${id}/${action}`, {
      ...(note ? { note } : {}),
      ...(reason ? { reason } : {}),
    }),

  events: (filters: EventFilters, cursor?: string) =>
    api<EventPage>(`/audit/v1/events${query({ ...filters, cursor, pageSize: 50 })}`),
  event: (id: string) => api<AuditEventResponseDto>(`/audit/v1/events/${id}`),
  trace: (correlationId: string) =>
    api<TraceResponse>(`/audit/v1/traces/${encodeURIComponent(correlationId)}`),
  telemetryTrace: (traceId: string) =>
    api<TraceView>(`/audit/v1/telemetry/traces/${encodeURIComponent(traceId)}`),
  logs: (filters: LogFilters, cursor?: string) =>
    api<LogPage>(`/audit/v1/telemetry/logs${query({ ...filters, cursor, limit: 50 })}`),
  verifyIntegrity: (from?: string, to?: string) =>
    api<VerificationResult>(`/audit/v1/integrity/verify${query({ from, to })}`),

  hitlRequests: (status?: HitlStatus) =>
    api<Page<HitlRequestResponse>>(`/relay/v1/hitl-requests${query({ status, pageSize: 100 })}`),
  hitlRequest: (id: string) => api<HitlRequestResponse>(`/relay/v1/hitl-requests/${id}`),
  decideHitl: (id: string, decision: 'approve' | 'reject', note?: string) =>
    post<HitlRequestResponse>(`/relay/v1/hitl-requests/${id}/${decision}`, note ? { note } : {}),

  policyGroups: () =>
    api<Page<PolicyGroupResponse>>(`/relay/v1/policy-groups${query({ pageSize: 100 })}`),
  createPolicyGroup: (name: string, description?: string) =>
    post<PolicyGroupResponse>('/relay/v1/policy-groups', { name, description }),
  policyVersions: (groupId: string) =>
    api<Page<PolicyVersionResponse>>(
      `/relay/v1/policy-groups/${groupId}/versions${query({ pageSize: 100 })}`,
    ),
  createPolicyVersion: (groupId: string, version: NewPolicyVersion) =>
    post<PolicyVersionResponse>(`/relay/v1/policy-groups/${groupId}/versions`, version),
  policyBindings: (groupId: string) =>
    api<Page<PolicyBindingResponse>>(
      `/relay/v1/policy-bindings${query({ groupId, pageSize: 100 })}`,
    ),
  availableVersions: (bindingId: string) =>
    api<PolicyVersionResponse[]>(`/relay/v1/policy-bindings/${bindingId}/available-versions`),
  upgradeBinding: (bindingId: string, targetVersion?: string) =>
    post<PolicyBindingResponse>(
      `/relay/v1/policy-bindings/${bindingId}/upgrade${query({ targetVersion })}`,
    ),
  decide: (hop: unknown) => post<HopDecision>('/relay/v1/policy-decisions', hop),
  /** D49: re-judge the recorded hops of a window as if `version` were bound where `bindingId` is. */
  startReplay: (
    groupId: string,
    version: string,
    body: { from: string; to: string; bindingId?: string },
  ) =>
    post<ReplayResponse>(
      `/relay/v1/policy-groups/${groupId}/versions/${encodeURIComponent(version)}/replays`,
      body,
    ),
  replay: (groupId: string, version: string, replayId: string) =>
    api<ReplayResponse>(
      `/relay/v1/policy-groups/${groupId}/versions/${encodeURIComponent(version)}/replays/${replayId}`,
    ),
  /** R20: the same decision from one version alone, bound or not. */
  testVersion: (groupId: string, version: string, hop: unknown) =>
    post<HopDecision>(
      `/relay/v1/policy-groups/${groupId}/versions/${encodeURIComponent(version)}/test-runs`,
      hop,
    ),
};

/** Operation 6 with the explorer's filters: fetched with the token, saved as a file. */
export async function downloadExport(filters: EventFilters): Promise<void> {
  const { eventType, protocol, action, from, to } = filters;
  const response = await fetch(
    `/audit/v1/events/export${query({ eventType, protocol, action, from, to })}`,
    { headers: { authorization: `Bearer ${await accessToken()}` } },
  );
  if (!response.ok) {
    throw new Error(`The export failed (${response.status}).`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `audit-events-${new Date().toISOString().slice(0, 19)}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

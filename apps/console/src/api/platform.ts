import type { AlertResponse, Dashboard } from '@agp/audit';
import type { AlertStatus, Severity, TimeWindow } from '@agp/contracts';

import { Page, api, query } from './client';

/**
 * The typed API of the pages: response types are the services' own (`@agp/audit`,
 * `@agp/contracts`), so a change of a response shape fails the console's build.
 */
export interface PermissionEntry {
  entity: string;
  permission: 'READ' | 'WRITE' | 'DELETE' | 'ADMIN';
}

export const platform = {
  permissions: () => api<PermissionEntry[]>('/tenant-auth/v1/permissions'),
  dashboard: (window: TimeWindow) => api<Dashboard>(`/audit/v1/dashboard${query({ window })}`),
  alerts: (filters: {
    status?: AlertStatus;
    severity?: Severity;
    page?: number;
    pageSize?: number;
  }) => api<Page<AlertResponse>>(`/audit/v1/monitors/alerts${query(filters)}`),
  alert: (id: string) => api<AlertResponse>(`/audit/v1/monitors/alerts/${id}`),
  alertAction: (id: string, action: 'acknowledge' | 'resolve' | 'reopen', note?: string) =>
    api<AlertResponse>(`/audit/v1/monitors/alerts/${id}/${action}`, {
      method: 'POST',
      body: JSON.stringify(note ? { note } : {}),
    }),
};

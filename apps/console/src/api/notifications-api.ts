import type {
  CreatedNotificationTargetResponse,
  NotificationDelivery,
  NotificationTargetResponse,
} from './contracts/relay';
import { Page, api, query } from './client';

export type NotificationTargetKind = NotificationTargetResponse['kind'];
export type NotificationEvent = NotificationTargetResponse['events'][number];
export type NotificationSeverity = NonNullable<NotificationTargetResponse['minSeverity']>;

/** D58's body of a new target: `config` is the kind's own (credentials write-only). */
export interface NewNotificationTarget {
  name: string;
  kind: NotificationTargetKind;
  events: NotificationEvent[];
  minSeverity?: NotificationSeverity;
  config: Record<string, unknown>;
}

const PATH = '/relay/v1/notification-targets';
const send = <T>(method: string, path: string, body: unknown) =>
  api<T>(path, { method, body: JSON.stringify(body) });

/** The relay's notification targets and their deliveries (D58). */
export const notifications = {
  targets: () => api<Page<NotificationTargetResponse>>(`${PATH}${query({ pageSize: 100 })}`),
  create: (body: NewNotificationTarget) =>
    send<CreatedNotificationTargetResponse>('POST', PATH, body),
  setEnabled: (id: string, enabled: boolean) =>
    send<NotificationTargetResponse>('PATCH', `${PATH}/${id}`, { enabled }),
  remove: (id: string) => api<void>(`${PATH}/${id}`, { method: 'DELETE' }),
  deliveries: (id: string) =>
    api<Page<NotificationDelivery>>(`${PATH}/${id}/deliveries${query({ pageSize: 50 })}`),
};

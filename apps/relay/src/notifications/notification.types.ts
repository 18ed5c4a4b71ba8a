import { SEVERITIES, Severity } from '@agp/contracts';

/** D58: where a tenant's notifications go. */
export const NOTIFICATION_TARGET_KINDS = ['EMAIL', 'SLACK', 'WEBHOOK'] as const;
export type NotificationTargetKind = (typeof NOTIFICATION_TARGET_KINDS)[number];

/** D58: what a target may be told of. */
export const NOTIFICATION_EVENTS = [
  'HITL_REQUEST_CREATED',
  'ALERT_RAISED',
  'KILL_SWITCH_ENGAGED',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const NOTIFICATION_SEVERITIES = SEVERITIES;
export type NotificationSeverity = Severity;

export const NOTIFICATION_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type NotificationDeliveryStatus = (typeof NOTIFICATION_DELIVERY_STATUSES)[number];

/** The fields of each kind's `config` that are credentials: write-only (D37, W15). */
export const SECRET_CONFIG_FIELDS: Readonly<Record<NotificationTargetKind, readonly string[]>> = {
  EMAIL: ['password'],
  SLACK: ['botToken'],
  WEBHOOK: [],
};

/** A target as stored: `config` without its credentials, which are sealed apart. */
export interface StoredTarget {
  id: string;
  tenantId: string;
  name: string;
  kind: NotificationTargetKind;
  events: NotificationEvent[];
  minSeverity: NotificationSeverity | null;
  isEnabled: boolean;
  config: Record<string, unknown>;
  /** Sealed JSON of the credentials (`{password}`, `{botToken}`, `{secret}`). */
  secretsCiphertext: string;
  /** Names of the credentials set, so reads can show that one is there without showing it. */
  secretFields: string[];
  createdAt: string;
  updatedAt: string;
}

/** A target as the API answers it (W15: credentials as `********`, never their value). */
export interface NotificationTargetResponse {
  id: string;
  name: string;
  kind: NotificationTargetKind;
  events: NotificationEvent[];
  minSeverity?: NotificationSeverity;
  enabled: boolean;
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** The create answer of a WEBHOOK target: its signing secret, this once (D58). */
export interface CreatedNotificationTargetResponse extends NotificationTargetResponse {
  secret?: string;
}

/** What one notification says: ids, kinds, severities and a link, never content (D58, W17). */
export interface Notice {
  event: NotificationEvent;
  severity?: NotificationSeverity;
  data: Record<string, string | string[]>;
  /** The console page that opens what it is about, when there is one. */
  link?: string;
}

export interface NotificationAttempt {
  attempt: number;
  attemptedAt: string;
  durationMs: number;
  statusCode?: number;
  error?: string;
}

export interface NotificationDelivery {
  id: string;
  targetId: string;
  eventId: string;
  event: NotificationEvent;
  status: NotificationDeliveryStatus;
  attemptCount: number;
  nextAttemptAt?: string;
  lastStatusCode?: number;
  lastError?: string;
  deliveredAt?: string;
  /** The notification as built once and sent on every attempt. */
  body: Record<string, unknown>;
  attempts: NotificationAttempt[];
  createdAt: string;
  updatedAt: string;
}

/** A due delivery leased to this replica, with what its target needs to send it. */
export interface ClaimedNotification {
  id: string;
  tenantId: string;
  targetId: string;
  event: NotificationEvent;
  correlationId: string;
  payload: string;
  roundAttempts: number;
  leaseToken: string;
  /** Absent when the target was disabled since (its deliveries are abandoned). */
  target?: {
    kind: NotificationTargetKind;
    isEnabled: boolean;
    config: Record<string, unknown>;
    secretsCiphertext: string;
  };
}

/** The outcome of one attempt. `error` absent: delivered. */
export interface SendOutcome {
  attemptedAt: Date;
  durationMs: number;
  statusCode?: number;
  error?: string;
}

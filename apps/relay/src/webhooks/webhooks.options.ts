import { RetrySchedule } from './webhook-schedule';

export const WEBHOOK_OPTIONS = Symbol('relay:webhook-options');

/** The relay's webhook settings (RelayEnv's WEBHOOK_* variables). */
export interface WebhookOptions {
  schedule: RetrySchedule;
  timeoutMs: number;
  pollIntervalMs: number;
  concurrency: number;
  /** Settled deliveries are deleted this many days after their last change. */
  retentionDays: number;
}

/** D19: the old secret keeps signing beside the new one for 24 hours after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

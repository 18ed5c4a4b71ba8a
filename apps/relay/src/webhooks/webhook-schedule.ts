/** How deliveries are retried (D19: at least 6 attempts over at least 30 minutes, then FAILED). */
export interface RetrySchedule {
  /** Attempts in one round (the first delivery or one redelivery) before the delivery is FAILED. */
  maxAttempts: number;
  /** Wait after the first failed attempt; each later wait is `factor` times the previous. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const RETRY_FACTOR = 3;

/** About 18 hours first to last, inside the 24-hour overlap of a secret rotation. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  maxAttempts: 8,
  baseDelayMs: 60_000,
  maxDelayMs: 12 * 3_600_000,
};

/** `null` when the round is spent and the delivery is kept as FAILED. */
export function retryDelayMs(attempt: number, schedule: RetrySchedule): number | null {
  if (attempt >= schedule.maxAttempts) {
    return null;
  }
  return Math.min(schedule.baseDelayMs * RETRY_FACTOR ** (attempt - 1), schedule.maxDelayMs);
}

export function retrySpanMs(schedule: RetrySchedule): number {
  let span = 0;
  for (let attempt = 1; attempt < schedule.maxAttempts; attempt++) {
    span += retryDelayMs(attempt, schedule) ?? 0;
  }
  return span;
}

export function nextState(
  isDelivered: boolean,
  attempt: number,
  schedule: RetrySchedule,
  now: Date,
): { status: 'DELIVERED' | 'PENDING' | 'FAILED'; nextAttemptAt: Date | null } {
  if (isDelivered) {
    return { status: 'DELIVERED', nextAttemptAt: null };
  }
  const delay = retryDelayMs(attempt, schedule);
  return delay === null
    ? { status: 'FAILED', nextAttemptAt: null }
    : { status: 'PENDING', nextAttemptAt: new Date(now.getTime() + delay) };
}

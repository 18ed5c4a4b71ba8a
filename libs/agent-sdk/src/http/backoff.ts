import { MAX_BACKOFF_MS } from '../config/agent-config';

/** Exponential backoff: `base · 2^attempt`, capped, with up to 20 % jitter so replicas spread out. */
export function backoffDelayMs(attempt: number, baseMs: number, random = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** attempt, MAX_BACKOFF_MS);
  return Math.round(exponential * (1 + 0.2 * random()));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** 5xx and network failures are retried; other answers are final (specification, request behaviour). */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 && status <= 599;
}

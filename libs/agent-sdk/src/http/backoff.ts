import { AgentConfig, MAX_BACKOFF_MS } from '../config/agent-config';

/** Exponential backoff: `base · 2^attempt`, capped, with up to 20 % jitter so replicas spread out. */
export function backoffDelayMs(attempt: number, baseMs: number, random = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** attempt, MAX_BACKOFF_MS);
  return Math.round(exponential * (1 + 0.2 * random()));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function isRetryableStatus(status: number): boolean {
  return status >= 500 && status <= 599;
}

/** The longest one request may take under the request behaviour (S14). */
export function requestBudgetMs(
  config: Pick<AgentConfig, 'timeoutMs' | 'maxRetries' | 'retryBaseDelayMs'>,
  answerMarginMs = 0,
): number {
  let waits = 0;
  for (let retry = 0; retry < config.maxRetries; retry++) {
    waits += backoffDelayMs(retry, config.retryBaseDelayMs, () => 1);
  }
  return (config.maxRetries + 1) * (config.timeoutMs + answerMarginMs) + waits;
}

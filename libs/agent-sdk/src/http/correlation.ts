import { AsyncLocalStorage } from 'node:async_hooks';

/** D13: the header every request and response of the platform carries. */
export const CORRELATION_HEADER = 'x-correlation-id';

const current = new AsyncLocalStorage<string>();

/** Runs `work` with `correlationId` as the current request's id (D13). */
export function runWithCorrelationId<T>(correlationId: string | undefined, work: () => T): T {
  return correlationId ? current.run(correlationId, work) : work();
}

export function currentCorrelationId(): string | undefined {
  return current.getStore();
}

export function correlationIdOf(
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  const value = headers[CORRELATION_HEADER];
  const id = Array.isArray(value) ? value[0] : value;
  return id && id.length <= 200 ? id : undefined;
}

import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';

export const CORRELATION_HEADER = 'x-correlation-id';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** D13: the caller's correlation id when it is a sane token, a new UUID otherwise. */
export function assignCorrelationId(raw: IncomingMessage): string {
  const given = raw.headers[CORRELATION_HEADER];
  const value = typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
  raw.headers[CORRELATION_HEADER] = value;
  return value;
}

export function correlationIdOf(raw: IncomingMessage): string {
  const value = raw.headers[CORRELATION_HEADER];
  return typeof value === 'string' ? value : 'unknown';
}

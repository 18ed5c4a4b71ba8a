import { randomBytes } from 'node:crypto';

/** The NATS server tests use (F27). */
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A stream and subject prefix of its own for one test run (`NATS_PREFIX`). */
export function uniqueNatsPrefix(label = 't'): string {
  return `${label.replace(/[^a-z0-9]/gi, '').toLowerCase()}_${randomBytes(4).toString('hex')}`;
}

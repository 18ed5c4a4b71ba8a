import { randomBytes } from 'node:crypto';

/**
 * The NATS server tests use. Clearing a run's streams and reading its events stream need a NATS
 * client, which only `libs/messaging` uses (F27): `@agp/messaging/testing`.
 */
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A stream and subject prefix of its own for one test run (`NATS_PREFIX`). */
export function uniqueNatsPrefix(label = 't'): string {
  return `${label.replace(/[^a-z0-9]/gi, '').toLowerCase()}_${randomBytes(4).toString('hex')}`;
}

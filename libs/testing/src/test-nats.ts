import { randomBytes } from 'node:crypto';

import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A stream and subject prefix of its own for one test run (`NATS_PREFIX`). */
export function uniqueNatsPrefix(label = 't'): string {
  return `${label.replace(/[^a-z0-9]/gi, '').toLowerCase()}_${randomBytes(4).toString('hex')}`;
}

/** Removes the streams and key-value buckets a test run created under its prefix. */
export async function deleteNatsStreams(prefix: string, url = TEST_NATS_URL): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    for await (const stream of jsm.streams.list()) {
      const name = stream.config.name.toLowerCase();
      // Key-value buckets under the prefix too (the revocation bucket, KV_<prefix>_revocations).
      if (
        name.startsWith(`${prefix.toLowerCase()}_`) ||
        name.startsWith(`kv_${prefix.toLowerCase()}_`)
      ) {
        await jsm.streams.delete(stream.config.name);
      }
    }
  } finally {
    await nc.close();
  }
}

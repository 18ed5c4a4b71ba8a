import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/**
 * What tests need of a NATS server beyond the transport (`@agp/messaging/testing`): clearing the
 * streams a run made and reading its events stream as a subscriber would. Here rather than in
 * `libs/testing` because this library is the only code that talks to NATS (F22, F27); a separate
 * entry point so production imports never load it. `libs/testing` keeps the server's address
 * (`TEST_NATS_URL`) and the run's prefix (`uniqueNatsPrefix`), which need no client.
 */

/** Removes the streams and key-value buckets a test run created under its prefix. */
export async function deleteNatsStreams(prefix: string, url: string): Promise<void> {
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

export interface StreamEvent {
  subject: string;
  /** The message's NATS headers (`Nats-Msg-Id` among them). */
  headers: Record<string, string>;
  /** The parsed body: an event envelope, if the publisher kept the contract. */
  envelope: unknown;
}

/**
 * Every message on a run's events stream (`<PREFIX>_EVENTS`) from the first, as a subscriber
 * would read them: what the contract tests compare with the AsyncAPI document (issue 18).
 */
export async function readStreamEvents(prefix: string, url: string): Promise<StreamEvent[]> {
  const nc = await connect({ servers: url });
  try {
    const stream = `${prefix.toUpperCase()}_EVENTS`;
    const { state } = await (await jetstreamManager(nc)).streams.info(stream);
    const consumer = await jetstream(nc).consumers.get(stream);
    const events: StreamEvent[] = [];
    if (state.messages === 0) {
      return events;
    }
    for await (const message of await consumer.consume()) {
      const headers: Record<string, string> = {};
      for (const key of message.headers?.keys() ?? []) {
        headers[key] = message.headers?.values(key).join(', ') ?? '';
      }
      events.push({ subject: message.subject, headers, envelope: message.json() });
      if (message.info.pending === 0) {
        break;
      }
    }
    return events;
  } finally {
    await nc.close();
  }
}

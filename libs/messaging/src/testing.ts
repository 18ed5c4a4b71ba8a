import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/** What tests need of a NATS server beyond the transport (`@agp/messaging/testing`) (F22, F27). */

export async function deleteNatsStreams(prefix: string, url: string): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    for await (const stream of jsm.streams.list()) {
      const name = stream.config.name.toLowerCase();
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
  headers: Record<string, string>;
  envelope: unknown;
}

/** The run's events stream from the first, for the contract tests' AsyncAPI check (issue 18). */
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

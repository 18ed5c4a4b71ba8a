#!/usr/bin/env node
// Prints the platform's alerts as they open: a subscriber of its own on the events stream, as
// docs/events.md describes. Run from the repository root (it uses the NATS client the platform
// installs):  NATS_URL=nats://127.0.0.1:4222 NATS_PREFIX=agp node docs/examples/alert-subscriber.mjs
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const prefix = process.env.NATS_PREFIX ?? 'agp';
const types = (process.env.EVENT_TYPES ?? 'MONITOR_ALERT_TRIGGERED').split(',');
const durable = process.env.CONSUMER_NAME ?? 'alert-printer';
const stopAfter = Number(process.env.STOP_AFTER ?? Infinity); // for tests: exit after N events

const nc = await connect({ servers: natsUrl, name: durable });
const stream = `${prefix.toUpperCase()}_EVENTS`;

// A durable consumer of our own: the server remembers what we acknowledged, so events published
// while this process is down are delivered when it comes back. Creating it again is harmless.
await (
  await jetstreamManager(nc)
).consumers.add(stream, {
  durable_name: durable,
  ack_policy: AckPolicy.Explicit,
  deliver_policy: DeliverPolicy.New,
  // One type: `filter_subject`, which every JetStream server knows; several need NATS 2.10.
  ...(types.length === 1
    ? { filter_subject: `${prefix}.events.${types[0]}` }
    : { filter_subjects: types.map((type) => `${prefix}.events.${type}`) }),
});
console.log(`listening on ${stream} as ${durable} for ${types.join(', ')}`);

// Delivery is at least once: remember the ids already handled. A real subscriber keeps them where
// its side effect lives (the ticket table, say), so a restart does not page anyone twice.
const seen = new Set();
let printed = 0;
for await (const message of await jetstream(nc)
  .consumers.get(stream, durable)
  .then((c) => c.consume())) {
  const event = message.json();
  if (!seen.has(event.id)) {
    seen.add(event.id);
    const { alertId, detector, severity, subject, summary } = event.data;
    console.log(
      `${event.occurredAt} ${event.type} ${severity ?? ''} ${detector ?? ''} ` +
        `tenant=${event.tenantId} alert=${alertId ?? '-'} subject=${subject?.type ?? '-'}:${subject?.id ?? '-'} ` +
        `${summary ?? ''}`,
    );
    printed += 1;
  }
  message.ack();
  if (printed >= stopAfter) {
    break;
  }
}
await nc.drain();

import 'reflect-metadata';

import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';

import { EventEnvelope } from '@agp/contracts';
import { Database } from '@agp/database';
import { createTestDatabase, startNatsServer, uniqueNatsPrefix } from '@agp/testing';

import { DEFAULT_REDELIVERY } from '../src/redelivery';
import { EventOutbox } from '../src/event-outbox';
import { JetStreamTransport } from '../src/jetstream.transport';
import { OutboxRelay } from '../src/outbox-relay';
import {
  TEST_SCHEMA,
  openTestSchema,
  outboxSize,
  silentLogger,
} from '../test/support/messaging-test-schema';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const BATCH = 200;

/** Fills the outbox with `count` committed events, as services write them (D5). */
async function fill(database: Database, count: number): Promise<void> {
  const outbox = new EventOutbox(database);
  const tenantId = randomUUID();
  for (let done = 0; done < count; done += 1_000) {
    await database.inTenant(tenantId, async (tx) => {
      for (let i = done; i < Math.min(count, done + 1_000); i += 1) {
        await outbox.add(
          tx,
          'COMMUNICATION_AUDIT',
          { tenantId, correlationId: randomUUID() },
          { protocol: 'MCP', action: 'LOG', summary: `call ${i}` },
        );
      }
    });
  }
}

function rate(count: number, ms: number): string {
  return `${Math.round((count * 1_000) / ms).toLocaleString('en-US')} events/s (${(ms / 1_000).toFixed(1)} s)`;
}

async function main(): Promise<void> {
  const db = await createTestDatabase('messaging_bench');
  const nats = await startNatsServer();
  const database = await openTestSchema(db.url);
  const transport = await JetStreamTransport.connect(
    { url: nats.url, prefix: uniqueNatsPrefix('relaybench'), redelivery: DEFAULT_REDELIVERY },
    silentLogger,
  );
  process.stdout.write(
    `outbox relay benchmark: ${EVENTS.toLocaleString('en-US')} events, batches of ${BATCH}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  try {
    await fill(database, EVENTS);
    const sequentialStart = performance.now();
    let sent = 0;
    while (sent < EVENTS) {
      sent += await database.asSystem(async (tx) => {
        const rows: Array<{ id: string; envelope: EventEnvelope }> = await tx.query(
          `SELECT id, envelope FROM ${TEST_SCHEMA}.outbox ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [BATCH],
        );
        for (const row of rows) {
          await transport.publish(row.envelope);
        }
        await tx.query(`DELETE FROM ${TEST_SCHEMA}.outbox WHERE id = ANY($1::uuid[])`, [
          rows.map((r) => r.id),
        ]);
        return rows.length;
      });
    }
    process.stdout.write(
      `baseline: one publish at a time     ${rate(EVENTS, performance.now() - sequentialStart)}\n`,
    );

    await fill(database, EVENTS);
    const relay = new OutboxRelay(database, transport, silentLogger, { batchSize: BATCH });
    const relayStart = performance.now();
    while ((await relay.drainOnce()) > 0) {
      // drained batch by batch, as the relay's timer does when the outbox is full
    }
    const relayMs = performance.now() - relayStart;
    if ((await outboxSize(database)) !== 0) {
      throw new Error('the relay left rows behind');
    }
    process.stdout.write(`OutboxRelay (pipelined publishes)   ${rate(EVENTS, relayMs)}\n`);
  } finally {
    await transport.close();
    await database.close();
    await nats.destroy();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

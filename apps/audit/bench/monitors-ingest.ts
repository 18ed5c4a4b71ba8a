import { randomUUID } from 'node:crypto';

import { EVENT_VERSION, EventEnvelope } from '@agp/contracts';
import { EVENT_TRANSPORT, EventTransport } from '@agp/messaging';

import { startMonitorsBench } from './monitors-bench-app';

const EVENTS = Number(process.env.BENCH_INGEST_EVENTS ?? 3_000);

/**
 * The rollup consumer's throughput: traffic events delivered one by one (in-process bus, as the
 * embedded runner and each JetStream delivery do), each in its own transaction with its inbox row.
 */
export async function measureRollupIngest(databaseUrl: string): Promise<void> {
  const bench = await startMonitorsBench(databaseUrl);
  try {
    const transport = bench.app.get<EventTransport>(EVENT_TRANSPORT);
    const tenantId = randomUUID();
    const agents = Array.from({ length: 50 }, () => randomUUID());
    const servers = Array.from({ length: 10 }, () => randomUUID());
    const policies = Array.from({ length: 20 }, () => randomUUID());
    const start = Date.parse('2026-08-03T10:00:00Z');
    const envelopes: EventEnvelope[] = Array.from({ length: EVENTS }, (_, i) => ({
      id: randomUUID(),
      type: 'COMMUNICATION_AUDIT',
      version: EVENT_VERSION,
      occurredAt: new Date(start + i * 200).toISOString(),
      tenantId,
      correlationId: randomUUID(),
      data: {
        protocol: 'MCP',
        action: i % 20 === 0 ? 'BLOCK' : 'LOG',
        source: { type: 'AGENT', id: agents[i % agents.length] },
        sink: { type: 'MCP_SERVER', id: servers[i % servers.length] },
        policyIds: [policies[i % policies.length] ?? '', policies[(i + 7) % policies.length] ?? ''],
        details: { toolName: `tool_${i % 6}` },
      },
    }));
    const t0 = process.hrtime.bigint();
    for (const envelope of envelopes) {
      await transport.publish(envelope);
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    process.stdout.write(
      `\nRollup consumer: ${EVENTS} COMMUNICATION_AUDIT events one at a time in ${seconds.toFixed(1)} s: ` +
        `${(EVENTS / seconds).toFixed(0)} events/s (each: inbox row, ~10 counters, ~6 sightings)\n`,
    );
  } finally {
    await bench.app.close();
  }
}

import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';

import { EVENT_VERSION, EventEnvelope } from '@agp/contracts';

import { MetricSeriesService } from '../src/monitors/custom/metric-series.service';
import { RollupsService } from '../src/monitors/rollups/rollups.service';
import { startMonitorsBench } from './monitors-bench-app';
import { SeriesBeforeM33 } from './monitors-tick-before';

const EVENTS = Number(process.env.BENCH_INGEST_EVENTS ?? 20_000);
const BATCH = 500;

/**
 * The rollups' share of the ingest (M16, they are kept in its transaction): events one by one, each
 * in its own transaction (the in-process bus of the embedded runner), and in batches of 500 as the
 * JetStream path stores them.
 */
export async function measureRollupIngest(databaseUrl: string): Promise<void> {
  const bench = await startMonitorsBench(databaseUrl);
  try {
    const service = bench.app.get(RollupsService);
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
    const single = envelopes.slice(0, Math.min(EVENTS, 1_000));
    const t0 = process.hrtime.bigint();
    for (const envelope of single) {
      await bench.database.asSystem((tx) => service.recordIngested(tx, [envelope]));
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const batched = envelopes.map((e) => ({ ...e, id: randomUUID() }));
    const t1 = process.hrtime.bigint();
    for (let i = 0; i < batched.length; i += BATCH) {
      await bench.database.asSystem((tx) =>
        service.recordIngested(tx, batched.slice(i, i + BATCH)),
      );
    }
    const batchSeconds = Number(process.hrtime.bigint() - t1) / 1e9;
    // M29: the custom monitors' cells, the other observer of the ingest, on the same batches; with
    // M33's totals and without them (as before M33), batch for batch in turn, each in a tenant of
    // its own so that both insert their cells.
    const series = bench.app.get(MetricSeriesService);
    const seriesBefore = new MetricSeriesService(new SeriesBeforeM33());
    const [now, was] = [randomUUID(), randomUUID()].map((tenant) =>
      envelopes.map((e) => ({ ...e, id: randomUUID(), tenantId: tenant })),
    );
    let [seriesSeconds, beforeSeconds] = [0, 0];
    for (let i = 0; i < now.length; i += BATCH) {
      const t2 = process.hrtime.bigint();
      await bench.database.asSystem((tx) => series.recordIngested(tx, now.slice(i, i + BATCH)));
      const t3 = process.hrtime.bigint();
      await bench.database.asSystem((tx) =>
        seriesBefore.recordIngested(tx, was.slice(i, i + BATCH)),
      );
      seriesSeconds += Number(t3 - t2) / 1e9;
      beforeSeconds += Number(process.hrtime.bigint() - t3) / 1e9;
    }
    process.stdout.write(
      `\nRollups in the ingest transaction (COMMUNICATION_AUDIT events, each ~10 counters and ~6 sightings):\n` +
        `  one event per transaction (in-process bus): ${single.length} in ${seconds.toFixed(1)} s = ${(single.length / seconds).toFixed(0)} events/s\n` +
        `  batches of ${BATCH} (the JetStream path): ${batched.length} in ${batchSeconds.toFixed(1)} s = ${(batched.length / batchSeconds).toFixed(0)} events/s\n` +
        `  custom monitors' cells and totals (M29, M33), batches of ${BATCH}: ${now.length} in ${seriesSeconds.toFixed(1)} s = ${(now.length / seriesSeconds).toFixed(0)} events/s\n` +
        `  custom monitors' cells before M33, batches of ${BATCH}: ${was.length} in ${beforeSeconds.toFixed(1)} s = ${(was.length / beforeSeconds).toFixed(0)} events/s\n` +
        `  load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ')}\n`,
    );
  } finally {
    await bench.app.close();
  }
}

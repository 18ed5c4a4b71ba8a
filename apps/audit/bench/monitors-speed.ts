import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';

import { startMonitorsBench } from './monitors-bench-app';

const SUBJECTS: Array<[string, string, number]> = [
  ['AGENT', 'REQUESTS', 5_000],
  ['USER', 'REQUESTS', 3_500],
  ['MCP_SERVER', 'REQUESTS', 600],
  ['CHANNEL', 'REQUESTS', 300],
  ['LLM_GATEWAY', 'REQUESTS', 100],
  ['POLICY', 'INVOCATIONS', 500],
];
const DAYS = 7;
const END = new Date('2026-06-01T12:00:00Z');
const RUNS = 7;

/**
 * The detector tick over one tenant with 10,000 subjects and 7 days of minute rollups (every
 * subject, every minute: 1.68 million hour rows of 60 minute counts), written by SQL for speed, in
 * time order as the consumer would write them.
 */
export async function measureTickSpeed(databaseUrl: string): Promise<void> {
  const bench = await startMonitorsBench(databaseUrl);
  try {
    const tenantId = randomUUID();
    const from = new Date(END.getTime() - DAYS * 86_400_000);
    const started = Date.now();
    await bench.database.inTenant(tenantId, async (tx) => {
      await tx.query(
        `CREATE TEMPORARY TABLE bench_subjects (subject_type text, subject_id uuid, metric text, peak int) ON COMMIT DROP`,
      );
      for (const [type, metric, count] of SUBJECTS) {
        await tx.query(
          `INSERT INTO bench_subjects SELECT $1, gen_random_uuid(), $2, 1 + floor(random() * 6)::int FROM generate_series(1, $3)`,
          [type, metric, count],
        );
      }
      for (let day = 0; day < DAYS; day += 1) {
        await tx.query(
          `INSERT INTO audit.monitor_rollups (tenant_id, hour, subject_type, subject_id, metric, total, running)
           SELECT $1, h, s.subject_type, s.subject_id, s.metric, m.running[60], m.running
           FROM generate_series($2::timestamptz, $2::timestamptz + interval '23 hours', interval '1 hour') h
           CROSS JOIN bench_subjects s
           CROSS JOIN LATERAL (
             SELECT array_agg(through ORDER BY i) AS running
             FROM (
               SELECT i, sum(c) OVER (ORDER BY i)::int AS through
               FROM (SELECT i, floor(random() * (s.peak + 1))::int AS c FROM generate_series(1, 60) i WHERE h IS NOT NULL) x
             ) y
           ) m
           ORDER BY h`,
          [tenantId, new Date(from.getTime() + day * 86_400_000)],
        );
      }
      await tx.query(
        `INSERT INTO audit.monitor_sightings (tenant_id, observation, subject_type, subject_id, key, first_seen_at, last_seen_at, reappeared_at)
         SELECT $1::uuid, 'ACTIVITY', subject_type, subject_id, '', $2::timestamptz, $3::timestamptz, $2::timestamptz FROM bench_subjects
         UNION ALL SELECT $1::uuid, 'ACTIVITY', 'TENANT', $1::uuid, '', $2::timestamptz, $3::timestamptz, $2::timestamptz`,
        [tenantId, from, END],
      );
    });
    await bench.database.asSystem((tx) => tx.query('ANALYZE audit.monitor_rollups'));
    const rows: Array<{ n: string }> = await bench.database.asSystem((tx) =>
      tx.query('SELECT count(*) AS n FROM audit.monitor_rollups WHERE tenant_id = $1', [tenantId]),
    );
    process.stdout.write(
      `\nDetector tick speed: 10,000 subjects, ${DAYS} days of minute rollups (${rows[0]?.n} hour rows, written in ${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
    );
    // The first tick after the bulk write finds cold caches; a running service ticks every minute.
    const durations: number[] = [];
    for (let run = 0; run <= RUNS; run += 1) {
      const at = new Date(END.getTime() - (RUNS + 1 - run) * 60_000);
      const t0 = process.hrtime.bigint();
      const report = await bench.ticks.tick(at);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (run === 0) {
        process.stdout.write(
          `first (cold) tick: ${ms.toFixed(0)} ms, ${report?.tenants} tenant(s), ${report?.findings.length} finding(s)\n`,
        );
      } else {
        durations.push(ms);
      }
    }
    const sorted = [...durations].sort((a, b) => a - b);
    process.stdout.write(
      `machine: ${cpus().length} CPUs, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} (other processes share them)\n` +
        `tick duration over the next ${RUNS} minutes: median ${sorted[Math.floor(RUNS / 2)]?.toFixed(0)} ms, max ${sorted[RUNS - 1]?.toFixed(0)} ms (goal < 1000 ms)\n`,
    );
  } finally {
    await bench.app.close();
  }
}

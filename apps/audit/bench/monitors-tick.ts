import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';

import { AlertRaiserService } from '../src/monitors/alerts/alert-raiser.service';
import { MonitorConfigService } from '../src/monitors/config/monitor-config.service';
import { DetectorEvaluatorService } from '../src/monitors/tick/detector-evaluator.service';
import { HistoryDispersionRepository } from '../src/monitors/tick/history-dispersion.repository';
import { HistoryDispersionService } from '../src/monitors/tick/history-dispersion.service';
import { RATE_DETECTORS, rateMetrics } from '../src/monitors/engine/detectors/rate-detectors';
import { GovernanceEvaluatorService } from '../src/monitors/governance/governance-evaluator.service';
import { QuietService } from '../src/monitors/quiet/quiet.service';

import { GOVERNANCE_DETECTORS } from '../src/monitors/engine/detector-settings';
import { MonitorConfigRepository } from '../src/monitors/config/monitor-config.repository';
import { CustomMonitorsEvaluatorService } from '../src/monitors/custom/custom-monitors-evaluator.service';
import { CustomMonitorsRepository } from '../src/monitors/custom/custom-monitors.repository';
import { Finding } from '../src/monitors/engine/monitors.types';
import { MetricSeriesService } from '../src/monitors/custom/metric-series.service';
import { RollupsService } from '../src/monitors/rollups/rollups.service';
import { MonitorsBench, startMonitorsBench } from './monitors-bench-app';
import { evaluatePerMonitor } from './monitors-tick-per-monitor';
import { benchTenant, writeGovernance, writeMonitors, writeTraffic } from './monitors-tick-load';
import { TickBeforeM33, tickBeforeM44 } from './monitors-tick-before';

const DAYS = 7;
const END = new Date('2026-06-01T12:00:00Z');
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const MONITORS = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MINUTE_MS = 60_000;

function ms(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e6;
}

function summary(durations: number[]): string {
  const sorted = [...durations].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, max ${sorted[sorted.length - 1]?.toFixed(0)} ms`;
}

/** What a custom monitor's findings say, to compare the two read paths. */
function fingerprint(findings: Finding[]): string[] {
  return findings
    .map((f) => {
      const evidence = f.evidence as { observedValue?: number; comparisonValue?: number | null };
      return `${f.monitorId}|${f.subject.type}:${f.subject.id}|${evidence.observedValue}|${evidence.comparisonValue ?? ''}`;
    })
    .sort();
}

/**
 * Issue 17's tick: 24 detectors and 200 custom monitors over 10,000 subjects and 7 days, beside
 * the 19-detector tick of before, on one trace written as the ingest writes it (events and, in the
 * same transactions, their rollups and the custom monitors' cells). Custom monitors read their
 * metrics from the cells (M29, the default); a second app reads them as before M29 (rollups where
 * they hold, M26, the events otherwise, M27), a third every metric from the events.
 */
export async function measureFullTick(databaseUrl: string): Promise<void> {
  const bench = await startMonitorsBench(databaseUrl);
  const before = await startMonitorsBench(databaseUrl, { customMetricSource: 'ROLLUPS' });
  const raw = await startMonitorsBench(databaseUrl, { customMetricSource: 'EVENTS' });
  // Issue 38: the tick of today's detectors (each detector's own window only, before M61).
  const today = await startMonitorsBench(databaseUrl, { sustainedWindows: false });
  try {
    const tenant = benchTenant();
    const { tenantId } = tenant;
    const from = new Date(END.getTime() - DAYS * 86_400_000);
    const started = Date.now();
    await writeTraffic(
      bench.database,
      [bench.app.get(RollupsService), bench.app.get(MetricSeriesService)],
      tenant,
      from,
      END,
      EVENTS,
    );
    const split = await bench.database.inTenant(tenantId, async (tx) => {
      await writeGovernance(tx, tenant, END);
      return writeMonitors(tx, bench.app.get(CustomMonitorsRepository), tenantId, MONITORS);
    });
    await bench.database.asSystem(async (tx) => {
      // Every event of this database went through the ingest's observers, so the cells hold all
      // of them from the start; in a deployment they begin with their migration (M29).
      await tx.query(`UPDATE audit.monitor_series_start SET started_at = 'epoch'`);
      await tx.query('ANALYZE audit.monitor_rollups');
      await tx.query('ANALYZE audit.monitor_series');
      await tx.query('ANALYZE audit.events');
    });
    const [rows] = await bench.database.asSystem((tx) =>
      tx.query<Array<{ n: string; cells: string }>>(
        `SELECT (SELECT count(*) FROM audit.monitor_rollups WHERE tenant_id = $1) AS n,
                (SELECT count(*) FROM audit.monitor_series WHERE tenant_id = $1) AS cells`,
        [tenantId],
      ),
    );
    process.stdout.write(
      `\nTick with 24 detectors and ${MONITORS} custom monitors: 10,000 subjects, ${DAYS} days, ${EVENTS} events ` +
        `(${rows?.n} rollup hour rows, ${rows?.cells} custom-monitor cells), written in ${((Date.now() - started) / 1000).toFixed(0)} s\n` +
        `custom monitors: ${split.fromRollups} held by the rollups (M26), ${split.fromEvents} read from the events before M29\n`,
    );
    let minute = END.getTime() - 60 * MINUTE_MS;
    const beforeM33 = new TickBeforeM33(bench);
    const beforeM44 = tickBeforeM44(bench);
    type Tick = (at: Date) => Promise<number>;
    const tickOf =
      (app: MonitorsBench): Tick =>
      async (at) =>
        (await app.ticks.tick(at))?.findings.length ?? 0;
    // The paths' ticks take turns at successive minutes, so that the machine's load, which moves
    // from minute to minute, weighs on each alike.
    // `at`: the next tick's time (successive minutes by default).
    const ticks = async (
      paths: ReadonlyArray<[string, Tick]>,
      at: () => number = () => (minute += MINUTE_MS),
    ): Promise<void> => {
      const durations = paths.map((): number[] => []);
      const findings = paths.map(() => 0);
      for (let run = 0; run <= RUNS; run += 1) {
        for (const [i, [, tick]] of paths.entries()) {
          const when = at();
          // Every custom monitor due at every tick: the worst minute (M21's cadences spread them).
          await bench.database.inTenant(tenantId, (tx) =>
            tx.query(
              'UPDATE audit.monitor_definitions SET last_evaluated_at = NULL WHERE tenant_id = $1',
              [tenantId],
            ),
          );
          const t0 = process.hrtime.bigint();
          findings[i] = await tick(new Date(when));
          if (run > 0) {
            durations[i].push(ms(t0));
          }
        }
      }
      for (const [i, [label]] of paths.entries()) {
        process.stdout.write(
          `${label.padEnd(62)} ${summary(durations[i])} (${findings[i]} findings), load ${load()}\n`,
        );
      }
    };
    const setMode = async (isToday: boolean): Promise<void> => {
      await bench.database.inTenant(tenantId, async (tx) => {
        const off = Object.fromEntries(GOVERNANCE_DETECTORS.map((d) => [d, { enabled: false }]));
        await bench.app
          .get(MonitorConfigRepository)
          .save(tx, tenantId, isToday ? { detectors: off } : {}, 'bench');
        await tx.query('UPDATE audit.monitor_definitions SET enabled = $2 WHERE tenant_id = $1', [
          tenantId,
          !isToday,
        ]);
      });
    };
    const beforeM44Tick: Tick = async (at) => (await beforeM44.tick.tick(at))?.findings.length ?? 0;
    if (RUNS > 0) {
      // M45: ticks at minute :00 of successive hours of the trace's last day (each path's first
      // tick of an hour, its history read), the paths taking turns, before the minute ticks.
      let hour = END.getTime() - 12 * 3_600_000;
      await setMode(false);
      process.stdout.write(
        `first tick of an hour (:00 of successive hours from ${new Date(hour).toISOString()}), one warm-up, then ${RUNS}, the paths taking turns:\n`,
      );
      await ticks(
        [
          [`24 detectors + ${MONITORS} monitors at :00, before M44–M45`, beforeM44Tick],
          [
            `24 detectors + ${MONITORS} monitors at :00, own windows only (before M61)`,
            tickOf(today),
          ],
          [`24 detectors + ${MONITORS} monitors at :00, now (M44–M45, M61)`, tickOf(bench)],
        ],
        () => (hour += 3_600_000) - 3_600_000,
      );
      process.stdout.write(
        `whole tick, first one warm-up, then ${RUNS} at successive minutes, the paths taking turns:\n`,
      );
      await setMode(true);
      await ticks([
        ['19 traffic detectors, before M44–M45', beforeM44Tick],
        ['19 traffic detectors, own windows only (before M61)', tickOf(today)],
        ['19 traffic detectors (the tick before issue 17), now (M61)', tickOf(bench)],
      ]);
      await setMode(false);
      await ticks([
        ...(process.env.BENCH_BEFORE_M33 === '1'
          ? [
              [
                `24 detectors + ${MONITORS} monitors, before M33–M36`,
                (at: Date) => beforeM33.tick(at),
              ] as [string, Tick],
            ]
          : []),
        [`24 detectors + ${MONITORS} monitors, before M44–M45`, beforeM44Tick],
        [`24 detectors + ${MONITORS} monitors, own windows only (before M61)`, tickOf(today)],
        [`24 detectors + ${MONITORS} monitors, now (M44–M45, M61)`, tickOf(bench)],
        ...(process.env.BENCH_BEFORE === '1'
          ? [
              [`24 detectors + ${MONITORS} monitors, before M29 (M26, M27)`, tickOf(before)] as [
                string,
                Tick,
              ],
            ]
          : []),
      ]);
    } else {
      await setMode(false);
    }

    // Where a whole tick's time goes: each part of it alone, at one minute.
    await breakdown(bench, tenantId, new Date((minute += MINUTE_MS)));

    // The custom monitors alone, every read path at the same minute: same findings, how long.
    const at = new Date(minute + MINUTE_MS);
    const evaluate = async (
      evaluator: CustomMonitorsEvaluatorService,
      app: MonitorsBench = bench,
    ): Promise<[number, string[]]> => {
      await app.database.inTenant(tenantId, (tx) =>
        tx.query(
          'UPDATE audit.monitor_definitions SET last_evaluated_at = NULL WHERE tenant_id = $1',
          [tenantId],
        ),
      );
      const t0 = process.hrtime.bigint();
      const result = await evaluator.evaluate(tenantId, at);
      return [ms(t0), fingerprint(result.findings)];
    };
    const evaluatorOf = (app: MonitorsBench): CustomMonitorsEvaluatorService =>
      app.app.get(CustomMonitorsEvaluatorService);
    await compare(
      [
        ['cells, values in the database (M44)', () => evaluate(evaluatorOf(bench))],
        ['cells before M44', () => evaluate(beforeM44.custom)],
        ['cells before M33', () => evaluate(beforeM33.custom)],
        ['before M29', () => evaluate(evaluatorOf(before), before)],
        ['events', () => evaluate(evaluatorOf(raw), raw)],
      ],
      `all ${MONITORS} custom monitors alone at one minute`,
    );
    if (process.env.BENCH_BASELINE === '1') {
      // The baseline of M27 at the same minute: one read per monitor, as before the batching.
      const [batchedMs, batched] = await evaluate(evaluatorOf(before), before);
      await bench.database.inTenant(tenantId, (tx) =>
        tx.query(
          'UPDATE audit.monitor_definitions SET last_evaluated_at = NULL WHERE tenant_id = $1',
          [tenantId],
        ),
      );
      const t0 = process.hrtime.bigint();
      const perMonitor = fingerprint(await evaluatePerMonitor(bench, tenantId, at));
      const perMonitorMs = ms(t0);
      const same =
        batched.length === perMonitor.length && batched.every((f, i) => f === perMonitor[i]);
      process.stdout.write(
        `all ${MONITORS} custom monitors alone, rollups where they hold: batched reads (M27) ` +
          `${batchedMs.toFixed(0)} ms, one read per monitor (before) ${perMonitorMs.toFixed(0)} ms; ` +
          `findings ${batched.length} and ${perMonitor.length}, ${same ? 'identical' : 'DIFFERENT'}\n`,
      );
    }
  } finally {
    await today.app.close();
    await raw.app.close();
    await before.app.close();
    await bench.app.close();
  }
}

function load(): string {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
}

/** The parts of the tick of `at`, each timed alone, as `DetectorTickService.tick` runs them. */
async function breakdown(app: MonitorsBench, tenantId: string, at: Date): Promise<void> {
  await app.database.inTenant(tenantId, (tx) =>
    tx.query('UPDATE audit.monitor_definitions SET last_evaluated_at = NULL WHERE tenant_id = $1', [
      tenantId,
    ]),
  );
  const timed = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    const t0 = process.hrtime.bigint();
    const result = await run();
    process.stdout.write(`  ${label.padEnd(60)} ${ms(t0).toFixed(0)} ms\n`);
    return result;
  };
  process.stdout.write(`where the tick's time goes (each part alone, cells, M29):\n`);
  const settings = await timed('settings', () =>
    app.database.inTenant(tenantId, (tx) =>
      app.app.get(MonitorConfigService).settingsOf(tx, tenantId),
    ),
  );
  // M40: the lookback's quarter pairs, read once an hour per tenant (the ticks above shared it).
  const hour = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
  await timed('M40 quarter pairs of the lookback (once an hour)', () =>
    app.database.inTenant(tenantId, (tx) =>
      app.app
        .get(HistoryDispersionRepository)
        .quarterPairs(
          tx,
          tenantId,
          new Date(hour.getTime() - DAYS * 86_400_000),
          hour,
          rateMetrics(RATE_DETECTORS),
        ),
    ),
  );
  // M45: the same at the next hour's first tick, the past days kept (the ticks above read them).
  const history = app.app.get(HistoryDispersionService);
  const next = new Date(hour.getTime() + 3_600_000 + MINUTE_MS);
  await history.pairsBefore(tenantId, at, DAYS, rateMetrics(RATE_DETECTORS));
  await timed(
    `M45 the same at ${next.toISOString().slice(11, 16)}, past days kept (hours since midnight)`,
    () => history.pairsBefore(tenantId, next, DAYS, rateMetrics(RATE_DETECTORS)),
  );
  const traffic = await timed('19 traffic detectors', () =>
    app.app.get(DetectorEvaluatorService).evaluate(tenantId, at, settings),
  );
  const governance = await timed('5 governance detectors', () =>
    app.app.get(GovernanceEvaluatorService).evaluate(tenantId, at, settings),
  );
  const custom = await timed(`${MONITORS} custom monitors (reads and evaluation)`, () =>
    app.app.get(CustomMonitorsEvaluatorService).evaluate(tenantId, at),
  );
  const findings = [...traffic, ...governance, ...custom.findings];
  await timed(`raising ${findings.length} findings and resolving what closed`, () =>
    app.database.inTenant(tenantId, async (tx) => {
      const raiser = app.app.get(AlertRaiserService);
      const suppressionOf = await app.app.get(QuietService).lookupAt(tx, tenantId, at);
      await raiser.raise(tx, tenantId, findings, randomUUID(), suppressionOf);
      await raiser.resolveClosed(
        tx,
        tenantId,
        GOVERNANCE_DETECTORS,
        custom.evaluated,
        [...governance, ...custom.findings],
        randomUUID(),
        at,
      );
    }),
  );
}

async function compare(
  paths: ReadonlyArray<[string, () => Promise<[number, string[]]>]>,
  label: string,
): Promise<void> {
  const results: Array<[string, number, string[]]> = [];
  for (const [name, evaluate] of paths) {
    const [took, findings] = await evaluate();
    results.push([name, took, findings]);
  }
  const [, , first] = results[0];
  const same = results.every(
    ([, , findings]) =>
      findings.length === first.length && findings.every((f, i) => f === first[i]),
  );
  process.stdout.write(
    `${label}: ${results.map(([name, took, findings]) => `${name} ${took.toFixed(0)} ms (${findings.length} findings)`).join(', ')}; ` +
      `${same ? 'identical' : 'DIFFERENT'}\n` +
      `machine: ${cpus().length} CPUs, load average ${load()} (other processes share them); goal < 1000 ms\n`,
  );
  if (!same) {
    for (const [name, , findings] of results.slice(1)) {
      const only = (a: string[], b: string[]): string[] => a.filter((x) => !b.includes(x));
      process.stdout.write(
        `  only from ${results[0][0]}: ${only(first, findings).slice(0, 5).join(', ')}\n` +
          `  only from ${name}: ${only(findings, first).slice(0, 5).join(', ')}\n`,
      );
    }
  }
}

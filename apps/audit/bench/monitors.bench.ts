import 'reflect-metadata';

import { createTestDatabase } from '@agp/testing';

import { GovernanceProjectionRepository } from '../src/monitors/governance/governance-projection.repository';
import { Finding } from '../src/monitors/engine/monitors.types';
import { ANOMALY_KIND_NAMES } from '../tools/simulator/anomalies';
import {
  GovernanceGap,
  governanceSnapshots,
  isGapOpen,
  planGovernanceGaps,
} from '../tools/simulator/governance-gaps';
import { DrawnAnomalyHours, planSimulation } from '../tools/simulator/simulation';
import { isDrawnDetectable } from '../tools/simulator/anomaly-planner';
import { TenantModel } from '../tools/simulator/traffic-model';
import { SHAPES, TrafficShapes } from '../tools/simulator/traffic-shapes';
import { MonitorsBench, startMonitorsBench } from './monitors-bench-app';
import { scoreQuality, sideBySide } from './monitors-quality';
import { DetectorEvaluatorService } from '../src/monitors/tick/detector-evaluator.service';
import { TRAFFIC_DETECTORS, effectiveSettings } from '../src/monitors/engine/detector-settings';
import { measureRollupIngest } from './monitors-ingest';
import { measureTickSpeed } from './monitors-speed';
import { measureFullTick } from './monitors-tick';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** The evaluated trace ends here (a Monday 00:00 UTC), so its 7 days hold one weekend. */
const TRACE_END = new Date('2026-03-02T00:00:00Z');
const SEED = Number(process.env.BENCH_SEED ?? 7);
const TICK_EVERY = Number(process.env.BENCH_TICK_MINUTES ?? 1);
/** The simulator's traffic shapes (M17–M19): classic (issue 7), shaped, held-out. */
const SHAPES_NAME = process.env.BENCH_SHAPES ?? 'classic';

function line(label: string, value: string): void {
  process.stdout.write(`${label.padEnd(44)} ${value}\n`);
}

/** Detection quality over a 7-day trace with 50 injected anomalies (after 7 days of history). */
async function quality(databaseUrl: string): Promise<void> {
  const bench = await startMonitorsBench(databaseUrl);
  // Issue 38: today's detectors (each detector's own window only, before M61) on the same minutes.
  const today = await startMonitorsBench(databaseUrl, { sustainedWindows: false });
  try {
    const simulation = planSimulation({
      seed: SEED,
      days: 14,
      end: TRACE_END,
      anomalyDays: 7,
      anomalies: [...ANOMALY_KIND_NAMES, ...ANOMALY_KIND_NAMES],
      shapes: shapesNamed(SHAPES_NAME),
    });
    const evaluationStart = new Date(TRACE_END.getTime() - 7 * DAY_MS);
    // Issue 17: governance gaps opened and closed in the evaluated week (BENCH_GOVERNANCE=0: none).
    const gaps =
      process.env.BENCH_GOVERNANCE === '0'
        ? []
        : planGovernanceGaps(simulation.model, simulation.start, evaluationStart, TRACE_END, SEED);
    const governance = new GovernanceRecords(bench, simulation.model, gaps);
    const started = Date.now();
    // M50: the drawn minutes of the anomalies' hours, to score only what the trace holds as well.
    const drawn = new DrawnAnomalyHours(simulation.anomalies);
    await bench.writer.writeHours(simulation, simulation.start, evaluationStart, (_hour, batch) => {
      drawn.record(batch);
      return Promise.resolve();
    });
    await governance.applyAt(evaluationStart);
    const findings: Finding[] = [];
    const todayFindings: Finding[] = [];
    const todayEvaluator = today.app.get(DetectorEvaluatorService);
    const defaults = effectiveSettings(undefined);
    let ticks = 0;
    await bench.writer.writeHours(simulation, evaluationStart, TRACE_END, async (hour, batch) => {
      drawn.record(batch);
      for (let minute = 0; minute < 60; minute += TICK_EVERY) {
        const at = new Date(hour.getTime() + minute * MINUTE_MS);
        await governance.applyAt(at);
        const report = await bench.ticks.tick(at);
        ticks += 1;
        findings.push(...(report?.findings ?? []));
        todayFindings.push(
          ...(await todayEvaluator.evaluate(simulation.model.tenantId, at, defaults)),
        );
      }
    });
    const subjects = simulation.model.subjects.length;
    const report = scoreQuality([...simulation.anomalies, ...gaps], findings, subjects, 7 * 24);
    const traffic = scoreQuality(simulation.anomalies, findings, subjects, 7 * 24);
    const planOptions = {
      traceStart: simulation.start,
      from: simulation.start,
      to: simulation.end,
      kinds: [],
      shapes: shapesNamed(SHAPES_NAME),
      holidays: simulation.model.holidays,
    };
    const undrawn = simulation.anomalies.filter(
      (a) => !isDrawnDetectable(a, simulation.model, planOptions, drawn.count),
    );
    const drawnTraffic = scoreQuality(
      simulation.anomalies.filter((a) => !undrawn.includes(a)),
      findings,
      subjects,
      7 * 24,
    );
    process.stdout.write(
      `\nDetection quality (seed ${SEED}, shapes ${SHAPES_NAME}, ${subjects} subjects, ${ticks} ticks, ${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
    );
    line(
      'anomalies requested / placed',
      `${2 * ANOMALY_KIND_NAMES.length} / ${simulation.anomalies.length}, governance gaps ${gaps.length}`,
    );
    line(
      'traffic anomalies found (as before issue 17)',
      `${traffic.found} / ${traffic.injected} (${((100 * traffic.found) / traffic.injected).toFixed(1)} %)`,
    );
    line(
      'traffic anomalies drawn / found (M50)',
      `${drawnTraffic.injected} / ${drawnTraffic.found} (${((100 * drawnTraffic.found) / drawnTraffic.injected).toFixed(1)} %)`,
    );
    for (const a of undrawn) {
      line(
        '  not drawn (M50)',
        `${a.kind} ${a.detector} ${a.subject.type}:${a.subject.id} at ${a.start.toISOString()} (${a.minutes} min)`,
      );
    }
    line(
      'anomalies injected / found',
      `${report.injected} / ${report.found} (${((100 * report.found) / report.injected).toFixed(1)} %)`,
    );
    for (const [family, entry] of Object.entries(report.byFamily)) {
      line(`  ${family}`, `${entry.found} / ${entry.injected}`);
    }
    const per10k = (report.falseAlarms.length * 10_000) / report.subjectHours;
    line('false alarms / subject-hours', `${report.falseAlarms.length} / ${report.subjectHours}`);
    line('false alarms per 10,000 subject-hours', per10k.toFixed(2));
    process.stdout.write(
      `\nTraffic detectors by family, today's (own window) and M61– (the tick's) on the same minutes\n${sideBySide(
        {
          today: scoreQuality(simulation.anomalies, todayFindings, subjects, 7 * 24),
          'M61–': scoreQuality(
            simulation.anomalies,
            findings.filter((f) => (TRAFFIC_DETECTORS as readonly string[]).includes(f.detector)),
            subjects,
            7 * 24,
          ),
        },
      )}\n`,
    );
    for (const missed of report.missed) {
      line(
        '  missed',
        `${missed.kind} ${missed.detector} ${missed.subject.type}:${missed.subject.id} at ${missed.start.toISOString()} (${missed.minutes} min)`,
      );
    }
    for (const alarm of report.falseAlarms) {
      line('  false alarm', `${alarm.at} ${alarm.detector} ${alarm.summary}`);
    }
  } finally {
    await Promise.all([bench.app.close(), today.app.close()]);
  }
}

/** The governance records of the simulated subjects, written as the gaps open and close. */
class GovernanceRecords {
  private revision = 0;
  private last: Date | undefined;

  constructor(
    private readonly bench: MonitorsBench,
    private readonly model: TenantModel,
    private readonly gaps: readonly GovernanceGap[],
  ) {}

  /** Every record the first time, then those whose gap opened or closed since the last call. */
  async applyAt(at: Date): Promise<void> {
    const last = this.last;
    this.last = at;
    const changed = last
      ? new Set(
          this.gaps.filter((g) => isGapOpen(g, at) !== isGapOpen(g, last)).map((g) => g.subject.id),
        )
      : undefined;
    if (changed?.size === 0) {
      return;
    }
    this.revision += 1;
    const snapshots = governanceSnapshots(this.model, this.gaps, at, this.revision, changed);
    await this.bench.database.inTenant(this.model.tenantId, (tx) =>
      this.bench.app.get(GovernanceProjectionRepository).apply(tx, this.model.tenantId, snapshots),
    );
  }
}

function shapesNamed(name: string): TrafficShapes {
  const shapes = SHAPES[name];
  if (!shapes) {
    throw new Error(`BENCH_SHAPES: one of ${Object.keys(SHAPES).join(', ')}`);
  }
  return shapes;
}

async function main(): Promise<void> {
  const db = await createTestDatabase('monitors_bench');
  try {
    if (!process.env.BENCH_PART || process.env.BENCH_PART === 'quality') {
      await quality(db.url);
    }
    if (!process.env.BENCH_PART || process.env.BENCH_PART === 'ingest') {
      await measureRollupIngest(db.url);
    }
    if (!process.env.BENCH_PART || process.env.BENCH_PART === 'speed') {
      await measureTickSpeed(db.url);
    }
    if (!process.env.BENCH_PART || process.env.BENCH_PART === 'tick') {
      await measureFullTick(db.url);
    }
  } finally {
    if (process.env.BENCH_KEEP_DB === '1') {
      // Kept for EXPLAIN ANALYZE of the tick's statements; drop it by hand afterwards.
      process.stdout.write(`database kept: ${db.url}\n`);
    } else {
      await db.drop();
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

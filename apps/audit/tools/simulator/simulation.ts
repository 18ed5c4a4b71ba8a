import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';

import { RollupsRepository } from '../../src/monitors/rollups/rollups.repository';
import { Anomaly, AnomalyKind } from './anomalies';
import { DrawnCount, planAnomalies } from './anomaly-planner';
import { Random } from './random';
import { HourBatch, TrafficGenerator, hoursBetween } from './traffic-generator';
import { CLASSIC_SHAPES, TrafficShapes } from './traffic-shapes';
import { DEFAULT_POPULATION, Population, TenantModel, buildTenantModel } from './traffic-model';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export interface SimulationOptions {
  tenantId?: string;
  seed?: number;
  /** Days of history written, ending at `end`. */
  days: number;
  /** End of the trace (exclusive); default: the start of the current hour. */
  end?: Date;
  population?: Population;
  /** Anomalies to inject, placed in the last `anomalyDays` days of the trace. */
  anomalies?: AnomalyKind[];
  anomalyDays?: number;
  /** The traffic's shapes (default CLASSIC_SHAPES, the simulator of issue 7). */
  shapes?: TrafficShapes;
}

export interface Simulation {
  model: TenantModel;
  anomalies: Anomaly[];
  start: Date;
  end: Date;
  generator: TrafficGenerator;
}

/** A tenant's multi-day traffic with injected anomalies (issue 7, 5): the tool of tests, demos, tuning. */
export function planSimulation(options: SimulationOptions): Simulation {
  const random = new Random(options.seed ?? 1);
  const end = options.end ?? new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
  const start = new Date(end.getTime() - options.days * DAY_MS);
  const shapes = options.shapes ?? CLASSIC_SHAPES;
  const model = buildTenantModel(
    options.tenantId ?? randomUUID(),
    options.population ?? DEFAULT_POPULATION,
    random,
    shapes,
    { start, end },
  );
  const anomalyDays = Math.min(options.anomalyDays ?? options.days, options.days);
  const anomalies = planAnomalies(
    model,
    {
      traceStart: start,
      from: new Date(end.getTime() - anomalyDays * DAY_MS),
      to: end,
      kinds: options.anomalies ?? [],
      shapes,
      holidays: model.holidays,
    },
    random,
  );
  return {
    model,
    anomalies,
    start,
    end,
    generator: new TrafficGenerator(model, anomalies, random, start, shapes.burstBlockMinutes),
  };
}

/** Writes rollups and sightings straight into the store (the consumer's own upserts, M11). */
export class RollupWriter {
  constructor(
    private readonly database: Database,
    private readonly rollups: RollupsRepository,
  ) {}

  async write(tenantId: string, batch: HourBatch): Promise<void> {
    await this.database.inTenant(tenantId, async (tx) => {
      await this.rollups.addCounts(tx, tenantId, batch.rows);
      await this.rollups.addSightings(tx, tenantId, batch.sightings);
    });
  }

  /** Writes every hour in [from, to), calling `after` once each hour is stored. */
  async writeHours(
    simulation: Simulation,
    from: Date,
    to: Date,
    after?: (hour: Date, batch: HourBatch) => Promise<void>,
  ): Promise<void> {
    for (const hour of hoursBetween(from, to)) {
      const batch = simulation.generator.hour(hour);
      await this.write(simulation.model.tenantId, batch);
      await after?.(hour, batch);
    }
  }
}

/**
 * M50: the drawn minutes of the hours an anomaly falls in (every series of those hours), kept as
 * the trace is written, so that the bench can ask `isDrawnDetectable` what the trace holds.
 */
export class DrawnAnomalyHours {
  private readonly minutes = new Map<string, number[]>();

  constructor(private readonly anomalies: readonly Anomaly[]) {}

  record(batch: HourBatch): void {
    const from = batch.hour.getTime();
    const touched = this.anomalies.some(
      (a) => a.start.getTime() < from + HOUR_MS && a.start.getTime() + a.minutes * MINUTE_MS > from,
    );
    if (!touched) {
      return;
    }
    for (const row of batch.rows) {
      this.minutes.set(`${row.subjectType}:${row.subjectId}:${row.metric}:${from}`, row.minutes);
    }
  }

  /** The events of a series in [from, to) (minutes of hours not kept count as none). */
  readonly count: DrawnCount = (subjectType, subjectId, metric, from, to) => {
    let total = 0;
    for (let t = from.getTime(); t < to.getTime(); t += MINUTE_MS) {
      const hour = Math.floor(t / HOUR_MS) * HOUR_MS;
      const row = this.minutes.get(`${subjectType}:${subjectId}:${metric}:${hour}`);
      total += row?.[(t - hour) / MINUTE_MS] ?? 0;
    }
    return total;
  };
}

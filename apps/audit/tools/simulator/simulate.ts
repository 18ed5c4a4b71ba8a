import 'reflect-metadata';

import { parseArgs } from 'node:util';

import { loadEnvOrExit } from '@agp/config';
import { Database, createSchemaDataSource, migrate } from '@agp/database';

import { AuditEnv } from '../../src/config/audit.env';
import { auditDataSourceOptions } from '../../src/database/data-source';
import { RollupsRepository } from '../../src/monitors/rollups/rollups.repository';
import { ANOMALY_KIND_NAMES, AnomalyKind } from './anomalies';
import { RollupWriter, planSimulation } from './simulation';
import { SHAPES } from './traffic-shapes';

const USAGE = `npm run simulate -w @agp/audit -- [--tenant <uuid>] [--days 7] [--seed 1]
  [--anomalies ${ANOMALY_KIND_NAMES.slice(0, 3).join(',')},…|all] [--anomaly-days 2] [--end <ISO time>]
  [--shapes ${Object.keys(SHAPES).join('|')}]
Writes a tenant's multi-day traffic rollups (daily rhythm, weekends, noise) into DATABASE_URL,
with the named anomalies injected, and prints the plan (subjects and anomalies) as JSON.`;

function kindsOf(value: string | undefined): AnomalyKind[] {
  if (!value) {
    return [];
  }
  if (value === 'all') {
    return ANOMALY_KIND_NAMES;
  }
  const kinds = value.split(',').map((k) => k.trim());
  const unknown = kinds.filter((k) => !(ANOMALY_KIND_NAMES as string[]).includes(k));
  if (unknown.length > 0) {
    throw new Error(
      `unknown anomaly kind(s): ${unknown.join(', ')}; known: ${ANOMALY_KIND_NAMES.join(', ')}`,
    );
  }
  return kinds as AnomalyKind[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenant: { type: 'string' },
      days: { type: 'string', default: '7' },
      seed: { type: 'string', default: '1' },
      anomalies: { type: 'string' },
      'anomaly-days': { type: 'string' },
      end: { type: 'string' },
      shapes: { type: 'string', default: 'classic' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const env = loadEnvOrExit(AuditEnv);
  if (!env.DATABASE_URL) {
    throw new Error('DATABASE_URL is required');
  }
  const options = auditDataSourceOptions(env.DATABASE_URL);
  const dataSource = createSchemaDataSource(options);
  await dataSource.initialize();
  try {
    await migrate(dataSource, options.schema);
    const shapes = SHAPES[values.shapes];
    if (!shapes) {
      throw new Error(`--shapes: one of ${Object.keys(SHAPES).join(', ')}`);
    }
    const simulation = planSimulation({
      shapes,
      tenantId: values.tenant,
      seed: Number(values.seed),
      days: Number(values.days),
      end: values.end ? new Date(values.end) : undefined,
      anomalies: kindsOf(values.anomalies),
      anomalyDays: values['anomaly-days'] ? Number(values['anomaly-days']) : undefined,
    });
    const writer = new RollupWriter(
      new Database(dataSource, options.schema),
      new RollupsRepository(),
    );
    await writer.writeHours(simulation, simulation.start, simulation.end);
    const plan = {
      tenantId: simulation.model.tenantId,
      from: simulation.start.toISOString(),
      to: simulation.end.toISOString(),
      subjects: simulation.model.subjects.length,
      anomalies: simulation.anomalies.map((a) => ({
        kind: a.kind,
        detector: a.detector,
        subject: a.subject,
        start: a.start.toISOString(),
        minutes: a.minutes,
      })),
    };
    process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`simulate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

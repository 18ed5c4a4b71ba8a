import 'reflect-metadata';

import { randomUUID } from 'node:crypto';
import os from 'node:os';

import { Database, Row, Tx, createSchemaDataSource, migrate } from '@agp/database';
import { createTestDatabase } from '@agp/testing';

import { relayDataSourceOptions } from '../src/database/data-source';
import { BudgetsRepository } from '../src/spend/budgets.repository';
import { BUDGET_PERIODS, Budget, BudgetScope } from '../src/spend/spend.types';
import { Measurement, sequential, table } from './measure';

const SIZES = (process.env.BENCH_LEDGER_LINES ?? '1000,100000').split(',').map(Number);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);

/**
 * spend.md SP19: what a call's budget check costs as the ledger grows — the nine budgets a payment
 * counts under (tenant, agent, subscription × DAY, MONTH, ROLLING_24H) summed from hour totals in
 * one statement, beside re-summing each window's ledger lines per budget (SP9 as first written), in
 * the same run, on the same ledger (its lines spread over the last 30 days).
 */
async function main(): Promise<void> {
  const rows: Measurement[] = [];
  for (const lines of SIZES) {
    rows.push(...(await measure(lines)));
  }
  process.stdout.write(
    `budget check, node ${process.version}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}\n${table(rows)}\n`,
  );
}

async function measure(lines: number): Promise<Measurement[]> {
  const testDatabase = await createTestDatabase('relay_bench_budgets');
  const options = relayDataSourceOptions(testDatabase.url);
  const dataSource = createSchemaDataSource({ ...options, poolSize: 2 });
  await dataSource.initialize();
  await migrate(dataSource, options.schema);
  const database = new Database(dataSource, options.schema);
  try {
    const tenant = randomUUID();
    const [agent, subscription] = [randomUUID(), randomUUID()];
    const repository = new BudgetsRepository();
    await database.asSystem(async (tx) => {
      await tx.query(
        `INSERT INTO relay.spend_entries (id, tenant_id, kind, occurred_at, agent_id,
           subscription_id, amount_usd, total_tokens, correlation_id)
         SELECT gen_random_uuid(), $1, 'PAYMENT', now() - (g * interval '30 days') / $4,
                CASE WHEN g % 2 = 0 THEN $2::uuid ELSE gen_random_uuid() END,
                CASE WHEN g % 3 = 0 THEN $3::uuid END, 0.01, 0, 'bench'
           FROM generate_series(1, $4) g`,
        [tenant, agent, subscription, lines],
      );
      await tx.query('ANALYZE relay.spend_entries');
    });
    const budgets: Budget[] = [];
    const targets: [BudgetScope, string | null][] = [
      ['TENANT', null],
      ['AGENT', agent],
      ['SUBSCRIPTION', subscription],
    ];
    await database.inTenant(tenant, async (tx) => {
      for (const [scope, targetId] of targets) {
        for (const period of BUDGET_PERIODS) {
          const change = {
            scope,
            targetId,
            period,
            unit: 'USD' as const,
            softLimit: null,
            hardLimit: '1e9',
          };
          budgets.push(await repository.insert(tx, randomUUID(), tenant, change));
        }
      }
    });
    const hourTotals = await sequential(
      `${lines} lines: hour totals, one statement`,
      ITERATIONS,
      WARMUP,
      () => database.inTenant(tenant, (tx) => repository.usedOf(tx, budgets)),
    );
    const resummed = await sequential(
      `${lines} lines: re-sum per budget (baseline)`,
      ITERATIONS,
      WARMUP,
      () =>
        database.inTenant(tenant, async (tx) => {
          for (const budget of budgets) {
            await resum(tx, budget);
          }
        }),
    );
    return [hourTotals, resummed];
  } finally {
    await database.close();
    await testDatabase.drop();
  }
}

/** SP9 as first written: every ledger line of the window, plus live reservations. */
async function resum(tx: Tx, budget: Budget): Promise<string> {
  const column = { TENANT: undefined, AGENT: 'agent_id', SUBSCRIPTION: 'subscription_id' }[
    budget.scope as 'TENANT' | 'AGENT' | 'SUBSCRIPTION'
  ];
  const scoped = column ? `AND ${column} = $3` : 'AND $3::uuid IS NULL';
  const start = `(CASE $2::text WHEN 'DAY' THEN date_trunc('day', now(), 'UTC')
      WHEN 'MONTH' THEN date_trunc('month', now(), 'UTC') ELSE now() - interval '24 hours' END)`;
  const [row] = await tx.query<Row[]>(
    `SELECT
       (SELECT coalesce(sum(amount_usd), 0) FROM relay.spend_entries
         WHERE tenant_id = $1 AND occurred_at >= ${start} ${scoped})
     + (SELECT coalesce(sum(amount_usd), 0) FROM relay.budget_reservations
         WHERE tenant_id = $1 AND expires_at > now() ${scoped}) AS used`,
    [budget.tenantId, budget.period, budget.targetId],
  );
  return String(row.used);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});

import 'reflect-metadata';

import { randomUUID } from 'node:crypto';
import os from 'node:os';

import { Database, Row, Tx, createSchemaDataSource, migrate } from '@agp/database';
import { createTestDatabase } from '@agp/testing';

import { relayDataSourceOptions } from '../src/database/data-source';
import { BudgetsRepository } from '../src/spend/budgets.repository';
import { BUDGET_PERIODS, Budget, BudgetScope } from '../src/spend/spend.types';
import { Measurement, closedLoop, sequential, table } from './measure';

const SIZES = (process.env.BENCH_LEDGER_LINES ?? '1000,100000').split(',').map(Number);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 8);
const WRITE_SECONDS = Number(process.env.BENCH_WRITE_SECONDS ?? 10);

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
  rows.push(...(await measureWrites()));
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
    // SP20: the same totals spread over eight slots, as concurrent settles leave them.
    await database.asSystem((tx) => spreadOverSlots(tx));
    const spread = await sequential(
      `${lines} lines: hour totals over 8 slots (SP20)`,
      ITERATIONS,
      WARMUP,
      () => database.inTenant(tenant, (tx) => repository.usedOf(tx, budgets)),
    );
    return [hourTotals, spread, resummed];
  } finally {
    await database.close();
    await testDatabase.drop();
  }
}

/** Each hour row split into eight (slots 0–7), an eighth of its totals in each. */
async function spreadOverSlots(tx: Tx): Promise<void> {
  await tx.query(`
    WITH old AS (DELETE FROM relay.spend_hours RETURNING *)
    INSERT INTO relay.spend_hours (tenant_id, scope, target_id, hour, slot, amount_usd, tokens)
    SELECT tenant_id, scope, target_id, hour, s, amount_usd / 8, tokens / 8
      FROM old CROSS JOIN generate_series(0, 7) s`);
  await tx.query('ANALYZE relay.spend_hours');
}

/**
 * SP20: settles of one tenant from WRITERS connections at once, each a transaction whose last
 * statement is its ledger line (as LlmSpend.settle's now is): the trigger counting into one row
 * per hour (SP19 as first written, the function swapped in) beside eight slots (as migrated).
 */
async function measureWrites(): Promise<Measurement[]> {
  const testDatabase = await createTestDatabase('relay_bench_budget_writes');
  const options = relayDataSourceOptions(testDatabase.url);
  const dataSource = createSchemaDataSource({ ...options, poolSize: WRITERS });
  await dataSource.initialize();
  await migrate(dataSource, options.schema);
  const database = new Database(dataSource, options.schema);
  try {
    const tenant = randomUUID();
    const settle = () =>
      database.inTenant(tenant, async (tx) => {
        await tx.query(
          `INSERT INTO relay.spend_entries (id, tenant_id, kind, occurred_at, agent_id,
             amount_usd, total_tokens, correlation_id)
           VALUES (gen_random_uuid(), $1, 'LLM', now(), $2, 0.01, 10, 'bench')`,
          [tenant, randomUUID()],
        );
      });
    const [trigger] = await dataSource.query<Row[]>(
      `SELECT pg_get_functiondef('relay.spend_hours_count'::regproc) AS def`,
    );
    const eightSlots = String(trigger.def);
    const oneSlot = eightSlots.replace(/\(pg_current_xact_id\(\)[^,]*smallint/, '0::smallint');
    if (oneSlot === eightSlots) {
      throw new Error('the trigger no longer picks its slot as this bench expects');
    }
    const rows: Measurement[] = [];
    for (const [label, def] of [
      ['one row per hour (SP19 as first written)', oneSlot],
      ['eight slots per hour (SP20)', eightSlots],
    ]) {
      await dataSource.query(def);
      await closedLoop(`warm-up`, WRITERS, 1, settle);
      rows.push(await closedLoop(`${WRITERS} writers: ${label}`, WRITERS, WRITE_SECONDS, settle));
    }
    return rows;
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

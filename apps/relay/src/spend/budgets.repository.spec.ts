import { randomUUID } from 'node:crypto';

import { Database, Row, Tx } from '@agp/database';
import { EventBroadcast } from '@agp/messaging';

import {
  MigratedRelayDatabase,
  migratedRelayDatabase,
} from '../../test/support/migrated-relay-database';
import { BudgetsRepository } from './budgets.repository';
import { ModelPricesRepository } from './model-prices.repository';
import { SpendLedgerRepository } from './spend-ledger.repository';
import { SpendDirectory } from './spend-directory';
import { SpendMeter } from './spend-meter.service';
import { BUDGET_PERIODS, BUDGET_UNITS, Budget, BudgetScope } from './spend.types';
import { picoOfNumeric } from './usd';

/** spend.md SP9, SP19 on a real relay schema: a budget's window, summed without its lines. */
describe(BudgetsRepository.name, () => {
  let relay: MigratedRelayDatabase;
  let database: Database;
  const sut = new BudgetsRepository();
  const tenant = randomUUID();
  const other = randomUUID();
  const [agentA, agentB, subscription, gateway] = [
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
  ];
  const budgets: Budget[] = [];

  /** The ledger over 42 days (a line every 17 minutes), in both tenants. */
  const seed = (tx: Tx, tenantId: string) =>
    tx.query(
      `INSERT INTO relay.spend_entries (id, tenant_id, kind, occurred_at, agent_id,
         subscription_id, llm_gateway_id, amount_usd, total_tokens, correlation_id)
       SELECT gen_random_uuid(), $1, 'LLM', now() - g * interval '17 minutes',
              CASE WHEN g % 3 = 0 THEN $2 ELSE $3 END::uuid,
              CASE WHEN g % 2 = 0 THEN $4::uuid END, CASE WHEN g % 5 = 0 THEN $5::uuid END,
              CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 13) * 0.000123456789 END, g % 1000, 'c'
         FROM generate_series(0, 3600) g`,
      [tenantId, agentA, agentB, subscription, gateway],
    );
  /**
   * A priced line of each agent now, so that every window (a DAY or MONTH just begun included:
   * the series' line at now has no amount) counts something whatever the time of day.
   */
  const seedNow = (tx: Tx, tenantId: string) =>
    tx.query(
      `INSERT INTO relay.spend_entries (id, tenant_id, kind, occurred_at, agent_id,
         subscription_id, llm_gateway_id, amount_usd, total_tokens, correlation_id)
       SELECT gen_random_uuid(), $1, 'LLM', now(), a, $4, $5, 0.001, 3, 'c'
         FROM unnest(ARRAY[$2, $3]::uuid[]) AS a`,
      [tenantId, agentA, agentB, subscription, gateway],
    );

  beforeAll(async () => {
    relay = await migratedRelayDatabase('relay_budgets');
    database = relay.database;
    await database.asSystem(async (tx) => {
      await seed(tx, tenant);
      await seed(tx, other);
      await seedNow(tx, tenant);
      await seedNow(tx, other);
    });
    // SP20: lines of separate transactions, counted in several slots of the last hour's totals.
    for (let k = 0; k < 12; k++) {
      await database.asSystem((tx) => lineOf(tx, tenant, k % 2 ? agentA : agentB, k * 5));
    }
    await database.asSystem(async (tx) => {
      await tx.query(
        `INSERT INTO relay.budget_reservations (id, tenant_id, agent_id, subscription_id,
           amount_usd, tokens, expires_at)
         VALUES ($1, $3, $4, $5, 0.25, 40, now() + interval '1 minute'),
                ($2, $3, $4, NULL, 9, 900, now() - interval '1 minute')`,
        [randomUUID(), randomUUID(), tenant, agentA, subscription],
      );
      // As autovacuum would have: the planner reads a few lines by index, not the table.
      await tx.query('ANALYZE relay.spend_entries');
    });
    const targets: [BudgetScope, string | null][] = [
      ['TENANT', null],
      ['AGENT', agentA],
      ['AGENT', agentB],
      ['SUBSCRIPTION', subscription],
      ['LLM_GATEWAY', gateway],
    ];
    await database.inTenant(tenant, async (tx) => {
      for (const [scope, targetId] of targets) {
        for (const period of BUDGET_PERIODS) {
          for (const unit of BUDGET_UNITS) {
            const change = { scope, targetId, period, unit, softLimit: null, hardLimit: '1e9' };
            budgets.push(await sut.insert(tx, randomUUID(), tenant, change));
          }
        }
      }
    });
  });

  afterAll(async () => {
    await relay?.close();
  });

  it('should answer what re-summing the window’s ledger lines answers, for every scope, period and unit', async () => {
    const [used, expected] = await database.inTenant(tenant, async (tx) => [
      await sut.usedOf(tx, budgets),
      await Promise.all(budgets.map((b) => resummed(tx, b))),
    ]);

    expect(budgets.map((b) => picoOfNumeric(used.get(b.id)))).toEqual(
      expected.map((e) => picoOfNumeric(e)),
    );
    expect(expected.every((e) => picoOfNumeric(e) > 0n)).toBe(true);
  });

  it('should check a payment against its 18 budgets in three statements that read at most an hour of ledger lines per rolling window', async () => {
    const subject = { tenantId: tenant, agentId: agentA, subscriptionId: subscription };
    const rolling = budgets.filter(
      (b) => b.period === 'ROLLING_24H' && ['TENANT', 'AGENT', 'SUBSCRIPTION'].includes(b.scope),
    );

    // R40's directory, not listening (no budget changes here), on the uncounted database.
    const directory = new SpendDirectory(
      database,
      {} as EventBroadcast,
      new ModelPricesRepository(),
    );

    const { statements, read, answer } = await linesReadBy((db) =>
      new SpendMeter(db, sut, new SpendLedgerRepository(), directory).checkPayment(subject, '0.01'),
    );

    expect(answer).toMatchObject({ kind: 'ADMITTED' });
    // The budgets locked, every window summed at once, the reservation inserted.
    expect(statements).toBe(3);
    // A line every 17 minutes: at most four in the hour a rolling window starts in.
    expect(read).toBeLessThanOrEqual(4 * rolling.length);
  });

  it('should sum the windows of the budgets as reserved, though one was changed and one deleted since (SP9)', async () => {
    const limits = { softLimit: null, hardLimit: '1e9' };
    const [changed, deleted] = await database.inTenant(other, async (tx) => [
      await sut.insert(tx, randomUUID(), other, {
        ...{ scope: 'AGENT', targetId: agentA, period: 'DAY', unit: 'USD' },
        ...limits,
      }),
      await sut.insert(tx, randomUUID(), other, {
        ...{ scope: 'SUBSCRIPTION', targetId: subscription, period: 'ROLLING_24H' },
        ...{ unit: 'TOKENS', ...limits },
      }),
    ]);
    await database.inTenant(other, async (tx) => {
      const widened = { ...changed, scope: 'TENANT' as const, targetId: null, period: 'MONTH' };
      await sut.update(tx, other, changed.id, widened as Budget);
      await sut.delete(tx, other, deleted.id);
    });

    const [used, expected] = await database.inTenant(other, async (tx) => [
      await sut.usedOf(tx, [changed, deleted]),
      [await resummed(tx, changed), await resummed(tx, deleted)],
    ]);

    expect([changed, deleted].map((b) => picoOfNumeric(used.get(b.id)))).toEqual(
      expected.map((e) => picoOfNumeric(e)),
    );
    expect(expected.every((e) => picoOfNumeric(e) > 0n)).toBe(true);
  });

  it('should let a second transaction count a line in the tenant’s hour while the first’s is uncommitted (SP20)', async () => {
    let inserted!: () => void;
    const isInserted = new Promise<void>((resolve) => (inserted = resolve));
    let commit!: () => void;
    const isCommitted = new Promise<void>((resolve) => (commit = resolve));
    const first = database.asSystem(async (tx) => {
      await lineOf(tx, other, randomUUID(), 0);
      inserted();
      await isCommitted;
    });
    await isInserted;
    try {
      // A transaction counted in the first's slot waits for it: a few tries find another slot.
      const tries = await triesToCount(() =>
        database.asSystem(async (tx) => {
          await tx.query(`SET LOCAL lock_timeout = '200ms'`);
          await lineOf(tx, other, randomUUID(), 0);
        }),
      );

      expect(tries).toBeLessThanOrEqual(4);
    } finally {
      commit();
      await first;
    }
  });

  /** The statements `check` runs, and the ledger lines its reads read (their plans, executed). */
  function linesReadBy<T>(
    check: (db: Database) => Promise<T>,
  ): Promise<{ statements: number; read: number; answer: T }> {
    return database.inTenant(tenant, async (tx) => {
      const sent: [string, unknown[] | undefined][] = [];
      const counting = {
        query: (sql: string, params?: unknown[]) => (
          sent.push([sql, params]),
          tx.query(sql, params)
        ),
      } as Tx;
      const db = { inTenant: (_: string, work: (t: Tx) => Promise<T>) => work(counting) };
      const answer = await check(db as unknown as Database);
      let read = 0;
      for (const [sql, params] of sent.filter(([q]) => !/^\s*INSERT/i.test(q))) {
        const [row] = await tx.query<Row[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
        read += ledgerRowsOf((row['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan);
      }
      return { statements: sent.length, read, answer };
    });
  }
});

/** One ledger line of an agent, `minutesAgo`, in the tenant's hour totals by its trigger. */
function lineOf(tx: Tx, tenantId: string, agentId: string, minutesAgo: number): Promise<unknown> {
  return tx.query(
    `INSERT INTO relay.spend_entries (id, tenant_id, kind, occurred_at, agent_id, amount_usd,
       total_tokens, correlation_id)
     VALUES (gen_random_uuid(), $1, 'LLM', now() - $3 * interval '1 minute', $2, 0.5, 7, 'c')`,
    [tenantId, agentId, minutesAgo],
  );
}

/** How many tries `count` took to get through without a lock timeout (Infinity: never in 8). */
async function triesToCount(count: () => Promise<unknown>): Promise<number> {
  for (let attempt = 1; attempt <= 8; attempt++) {
    try {
      await count();
      return attempt;
    } catch (error) {
      if ((error as { code?: string }).code !== '55P03') {
        throw error;
      }
    }
  }
  return Infinity;
}

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** The ledger lines a plan's scans of `spend_entries` read: those kept and those filtered out. */
function ledgerRowsOf(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'spend_entries'
      ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) *
        (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + ledgerRowsOf(child), 0);
}

/** SP9 as first written: every ledger line of the window, plus live reservations. */
async function resummed(tx: Tx, budget: Budget): Promise<string> {
  const column = {
    TENANT: undefined,
    AGENT: 'agent_id',
    SUBSCRIPTION: 'subscription_id',
    LLM_GATEWAY: 'llm_gateway_id',
  }[budget.scope];
  const scoped = column ? `AND ${column} = $3` : 'AND $3::uuid IS NULL';
  const amount = budget.unit === 'USD' ? 'amount_usd' : 'total_tokens';
  const reserved = budget.unit === 'USD' ? 'amount_usd' : 'tokens';
  const start = `(CASE $2::text WHEN 'DAY' THEN date_trunc('day', now(), 'UTC')
      WHEN 'MONTH' THEN date_trunc('month', now(), 'UTC') ELSE now() - interval '24 hours' END)`;
  const [row] = await tx.query<Row[]>(
    `SELECT
       (SELECT coalesce(sum(${amount}), 0) FROM relay.spend_entries
         WHERE tenant_id = $1 AND occurred_at >= ${start} ${scoped})
     + (SELECT coalesce(sum(${reserved}), 0) FROM relay.budget_reservations
         WHERE tenant_id = $1 AND expires_at > now() ${scoped}) AS used`,
    [budget.tenantId, budget.period, budget.targetId],
  );
  return String(row.used);
}

import { Injectable } from '@nestjs/common';
import { Row, Tx, iso, returning, str } from '@agp/database';

import { trimDecimal } from './usd';
import { Budget, BudgetPeriod, BudgetScope, BudgetUnit } from './spend.types';

const T = 'relay.budgets';

export type BudgetChange = Pick<
  Budget,
  'scope' | 'targetId' | 'period' | 'unit' | 'softLimit' | 'hardLimit'
>;

/** What a call is counted under (D60): its tenant, agent, subscription and gateway. */
export interface SpendSubject {
  tenantId: string;
  agentId: string;
  subscriptionId?: string;
  llmGatewayId?: string;
}

/** D60: a tenant's budgets; every method takes the tenant id. */
@Injectable()
export class BudgetsRepository {
  async insert(tx: Tx, id: string, tenantId: string, b: BudgetChange): Promise<Budget> {
    const [row] = await tx.query<Row[]>(
      `INSERT INTO ${T} (id, tenant_id, scope, target_id, period, unit, soft_limit, hard_limit)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [id, tenantId, b.scope, b.targetId, b.period, b.unit, b.softLimit, b.hardLimit],
    );
    return toBudget(row);
  }

  async find(tx: Tx, tenantId: string, id: string, lock = false): Promise<Budget | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [tenantId, id],
    );
    return rows[0] ? toBudget(rows[0]) : undefined;
  }

  async list(
    tx: Tx,
    tenantId: string,
    filter: { scope?: BudgetScope; targetId?: string },
    limit: number,
    offset: number,
  ): Promise<{ items: Budget[]; total: number }> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR scope = $2)
       AND ($3::uuid IS NULL OR target_id = $3)`;
    const params = [tenantId, filter.scope ?? null, filter.targetId ?? null];
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE ${where} ORDER BY scope, target_id NULLS FIRST, period, unit, id
        LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${T} WHERE ${where}`,
      params,
    );
    return { items: rows.map(toBudget), total: Number(count?.n ?? 0) };
  }

  async update(tx: Tx, tenantId: string, id: string, b: BudgetChange): Promise<Budget> {
    const [row] = await returning(
      tx,
      `UPDATE ${T} SET scope = $3, target_id = $4, period = $5, unit = $6, soft_limit = $7,
         hard_limit = $8, soft_alerted_at = NULL, updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      [tenantId, id, b.scope, b.targetId, b.period, b.unit, b.softLimit, b.hardLimit],
    );
    return toBudget(row);
  }

  async delete(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${T} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  /** SP8: whether the target a budget names exists in the tenant. */
  async targetExists(tx: Tx, tenantId: string, scope: BudgetScope, id: string): Promise<boolean> {
    const table = TARGET_TABLES[scope];
    if (!table) {
      return false;
    }
    const rows: Row[] = await tx.query(`SELECT 1 FROM ${table} WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
    return rows.length > 0;
  }

  /**
   * SP8: the budgets a call counts under, locked in id order: replicas admitting calls of the
   * same budget take turns, as the rate limiter's counters do (D36), and never deadlock.
   */
  async applicable(tx: Tx, subject: SpendSubject, lock: boolean): Promise<Budget[]> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 AND (scope = 'TENANT'
          OR (scope = 'AGENT' AND target_id = $2)
          OR (scope = 'SUBSCRIPTION' AND target_id = $3)
          OR (scope = 'LLM_GATEWAY' AND target_id = $4))
        ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
      [
        subject.tenantId,
        subject.agentId,
        subject.subscriptionId ?? null,
        subject.llmGatewayId ?? null,
      ],
    );
    return rows.map(toBudget);
  }

  /**
   * SP9: what a budget has used in its current window, in its unit: the ledger's entries since the
   * window began plus the reservations of calls still in flight.
   */
  async used(tx: Tx, budget: Budget): Promise<string> {
    const column = SCOPE_COLUMNS[budget.scope];
    const scoped = column ? `AND ${column} = $3` : 'AND $3::uuid IS NULL';
    const amount = budget.unit === 'USD' ? 'amount_usd' : 'total_tokens';
    const reserved = budget.unit === 'USD' ? 'amount_usd' : 'tokens';
    const [row] = await tx.query<Row[]>(
      `SELECT
         (SELECT coalesce(sum(${amount}), 0) FROM relay.spend_entries
           WHERE tenant_id = $1 AND occurred_at >= ${windowStart('$2')} ${scoped})
       + (SELECT coalesce(sum(${reserved}), 0) FROM relay.budget_reservations
           WHERE tenant_id = $1 AND expires_at > now() ${scoped}) AS used`,
      [budget.tenantId, budget.period, budget.targetId],
    );
    return String(row.used);
  }

  /** SP11: marks the soft limit alerted for this window; false when it already was. */
  async markSoftAlerted(tx: Tx, budget: Budget): Promise<boolean> {
    const rows = await returning(
      tx,
      `UPDATE ${T} SET soft_alerted_at = now()
        WHERE tenant_id = $1 AND id = $2
          AND (soft_alerted_at IS NULL OR soft_alerted_at < ${windowStart('$3')}) RETURNING id`,
      [budget.tenantId, budget.id, budget.period],
    );
    return rows.length > 0;
  }
}

/** SP10: DAY and MONTH are calendar windows in UTC; ROLLING_24H the last 24 hours. */
function windowStart(period: string): string {
  return `(CASE ${period}::text
      WHEN 'DAY' THEN date_trunc('day', now(), 'UTC')
      WHEN 'MONTH' THEN date_trunc('month', now(), 'UTC')
      ELSE now() - interval '24 hours' END)`;
}

const SCOPE_COLUMNS: Record<BudgetScope, string | undefined> = {
  TENANT: undefined,
  AGENT: 'agent_id',
  SUBSCRIPTION: 'subscription_id',
  LLM_GATEWAY: 'llm_gateway_id',
};

const TARGET_TABLES: Record<BudgetScope, string | undefined> = {
  TENANT: undefined,
  AGENT: 'relay.agents',
  SUBSCRIPTION: 'relay.subscriptions',
  LLM_GATEWAY: 'relay.llm_gateways',
};

function limitOf(value: unknown): string | null {
  return value === null || value === undefined ? null : trimDecimal(value);
}

function toBudget(row: Row): Budget {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    scope: String(row.scope) as BudgetScope,
    targetId: str(row.target_id) ?? null,
    period: String(row.period) as BudgetPeriod,
    unit: String(row.unit) as BudgetUnit,
    softLimit: limitOf(row.soft_limit),
    hardLimit: limitOf(row.hard_limit),
    softAlertedAt: iso(row.soft_alerted_at) ?? null,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

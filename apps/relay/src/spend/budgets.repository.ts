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

  /** SP9: what a budget has used in its current window, in its unit (see `usedOf`). */
  async used(tx: Tx, budget: Budget): Promise<string> {
    return (await this.usedOf(tx, [budget])).get(budget.id) ?? '0';
  }

  /**
   * SP9, SP19: what each budget has used in its current window, in its unit, in one statement: the
   * ledger's hour sums since the window's hour began (less the lines of that hour before the
   * window opened, for ROLLING_24H) plus the reservations of calls still in flight. What it reads
   * is bounded by the window's hours, never by the ledger's lines. The budgets are summed as given
   * (a reservation's, SP21), not as `relay.budgets` holds them now: one changed or deleted since
   * the call was reserved still answers its own window.
   */
  async usedOf(tx: Tx, budgets: readonly Budget[]): Promise<Map<string, string>> {
    if (budgets.length === 0) {
      return new Map();
    }
    const inUnit = (usd: string, tokens: string) =>
      `CASE WHEN b.unit = 'USD' THEN coalesce(sum(${usd}), 0) ELSE coalesce(sum(${tokens}), 0) END`;
    // The window's bounds as plain values first, so each sum reads its index's range only.
    const rows: Row[] = await tx.query(
      `WITH b AS MATERIALIZED (
         SELECT g.id, $1::uuid AS tenant_id, g.scope, g.unit,
                coalesce(g.target_id, '${NO_TARGET}'::uuid) AS target_id,
                start, date_trunc('hour', start, 'UTC') AS from_hour
           FROM unnest($2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::text[])
                  AS g (id, scope, target_id, period, unit),
                LATERAL (SELECT ${windowStart('g.period')} AS start) w)
       SELECT b.id,
         (SELECT ${inUnit('h.amount_usd', 'h.tokens')} FROM relay.spend_hours h
           WHERE h.tenant_id = b.tenant_id AND h.scope = b.scope AND h.target_id = b.target_id
             AND h.hour >= b.from_hour)
       - CASE WHEN b.start = b.from_hour THEN 0 ELSE
           (SELECT ${inUnit('e.amount_usd', 'e.total_tokens')} FROM relay.spend_entries e
             WHERE e.tenant_id = b.tenant_id AND ${countsUnder('e')}
               AND e.occurred_at >= b.from_hour AND e.occurred_at < b.start)
         END
       + (SELECT ${inUnit('r.amount_usd', 'r.tokens')} FROM relay.budget_reservations r
           WHERE r.tenant_id = b.tenant_id AND ${countsUnder('r')} AND r.expires_at > now()) AS used
         FROM b`,
      [
        budgets[0].tenantId,
        budgets.map((b) => b.id),
        budgets.map((b) => b.scope),
        budgets.map((b) => b.targetId),
        budgets.map((b) => b.period),
        budgets.map((b) => b.unit),
      ],
    );
    return new Map(rows.map((r) => [String(r.id), String(r.used)]));
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

/** The TENANT scope's target in `relay.spend_hours` (migration 1765540000000). */
const NO_TARGET = '00000000-0000-0000-0000-000000000000';

/** Whether a ledger line or reservation (`alias`) counts under budget `b` (SP9). */
function countsUnder(alias: string): string {
  return `(b.scope = 'TENANT'
    OR (b.scope = 'AGENT' AND ${alias}.agent_id = b.target_id)
    OR (b.scope = 'SUBSCRIPTION' AND ${alias}.subscription_id = b.target_id)
    OR (b.scope = 'LLM_GATEWAY' AND ${alias}.llm_gateway_id = b.target_id))`;
}

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

import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext } from '@agp/auth';
import { Database, Tx, isUniqueViolation } from '@agp/database';
import { HttpProblem, Page, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { formatUsed } from './budget-verdict';
import { budgetFaults } from './budget-rules';
import { BudgetChange, BudgetsRepository } from './budgets.repository';
import { CreateBudgetDto, ListBudgetsQueryDto, UpdateBudgetDto } from './dto/budget.dto';
import { SpendErrorCode, SpendException } from './spend.exception';
import { BUDGET_KIND, Budget } from './spend.types';
import { picoOfNumeric } from './usd';

/** A budget as the API answers it (D60), with what its current window has used (SP9). */
export type BudgetResponse = Omit<Budget, 'tenantId'> & { used: string };

/** D60, D42: every change an ADMIN_CHANGE of kind BUDGET in its transaction. */
@Injectable()
export class BudgetsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly budgets: BudgetsRepository,
  ) {}

  list(ctx: RequestContext, query: ListBudgetsQueryDto): Promise<Page<BudgetResponse>> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const { items, total } = await this.budgets.list(
        tx,
        ctx.tenantId,
        { scope: query.scope, targetId: query.targetId },
        query.pageSize,
        pageOffset(query),
      );
      const answered: BudgetResponse[] = [];
      for (const budget of items) {
        answered.push(await this.withUsed(tx, budget));
      }
      return pageOf(answered, total, query);
    });
  }

  get(ctx: RequestContext, id: string): Promise<BudgetResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      this.withUsed(tx, await this.mustFind(tx, ctx.tenantId, id)),
    );
  }

  create(ctx: RequestContext, dto: CreateBudgetDto): Promise<BudgetResponse> {
    const value: BudgetChange = {
      scope: dto.scope,
      targetId: dto.targetId ?? null,
      period: dto.period,
      unit: dto.unit,
      softLimit: dto.softLimit ?? null,
      hardLimit: dto.hardLimit ?? null,
    };
    return this.writing(() =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        await this.mustBeWhole(tx, ctx.tenantId, value);
        const stored = await this.budgets.insert(tx, randomUUID(), ctx.tenantId, value);
        await recordAdminChange(this.outbox, tx, ctx, 'CREATED', {
          target: targetOf(stored),
          after: toResponse(stored),
        });
        return this.withUsed(tx, stored);
      }),
    );
  }

  update(ctx: RequestContext, id: string, dto: UpdateBudgetDto): Promise<BudgetResponse> {
    return this.writing(() =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const current = await this.mustFind(tx, ctx.tenantId, id, true);
        const next: BudgetChange = {
          scope: dto.scope ?? current.scope,
          targetId: dto.targetId === undefined ? current.targetId : dto.targetId,
          period: dto.period ?? current.period,
          unit: dto.unit ?? current.unit,
          softLimit: dto.softLimit === undefined ? current.softLimit : dto.softLimit,
          hardLimit: dto.hardLimit === undefined ? current.hardLimit : dto.hardLimit,
        };
        await this.mustBeWhole(tx, ctx.tenantId, next);
        const stored = await this.budgets.update(tx, ctx.tenantId, id, next);
        await recordAdminChange(this.outbox, tx, ctx, 'UPDATED', {
          target: targetOf(stored),
          before: toResponse(current),
          after: toResponse(stored),
        });
        return this.withUsed(tx, stored);
      }),
    );
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.mustFind(tx, ctx.tenantId, id, true);
      await this.budgets.delete(tx, ctx.tenantId, id);
      await recordAdminChange(this.outbox, tx, ctx, 'DELETED', {
        target: targetOf(current),
        before: toResponse(current),
      });
    });
  }

  private async withUsed(tx: Tx, budget: Budget): Promise<BudgetResponse> {
    const used = picoOfNumeric(await this.budgets.used(tx, budget));
    return { ...toResponse(budget), used: formatUsed(budget, used) };
  }

  /** D12: every fault of the whole budget listed, the target one of this tenant's. */
  private async mustBeWhole(tx: Tx, tenantId: string, value: BudgetChange): Promise<void> {
    const faults = budgetFaults(value);
    if (
      value.targetId !== null &&
      value.scope !== 'TENANT' &&
      !(await this.budgets.targetExists(tx, tenantId, value.scope, value.targetId))
    ) {
      faults.push({
        field: 'targetId',
        message: `no ${value.scope} ${value.targetId} in this tenant`,
      });
    }
    if (faults.length > 0) {
      throw HttpProblem.validation(faults);
    }
  }

  /** SP6: one budget per scope, target, period and unit; a second is a 409. */
  private async writing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new SpendException(
          SpendErrorCode.BudgetTaken,
          'the tenant already has a budget of this scope, target, period and unit',
        );
      }
      throw error;
    }
  }

  private async mustFind(tx: Tx, tenantId: string, id: string, lock = false): Promise<Budget> {
    const found = await this.budgets.find(tx, tenantId, id, lock);
    if (!found) {
      throw new SpendException(SpendErrorCode.BudgetNotFound, `budget ${id} not found`);
    }
    return found;
  }
}

function targetOf(b: Budget) {
  const target = b.targetId ? ` ${b.targetId}` : '';
  return { kind: BUDGET_KIND, id: b.id, name: `${b.scope}${target} ${b.unit} per ${b.period}` };
}

function toResponse(b: Budget): Omit<BudgetResponse, 'used'> {
  return {
    id: b.id,
    scope: b.scope,
    targetId: b.targetId,
    period: b.period,
    unit: b.unit,
    softLimit: b.softLimit,
    hardLimit: b.hardLimit,
    softAlertedAt: b.softAlertedAt,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
  };
}

import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { BudgetResponse, BudgetsService } from './budgets.service';
import { CreateBudgetDto, ListBudgetsQueryDto, UpdateBudgetDto } from './dto/budget.dto';

/** D48, D60: budgets, under BILLING. */
@Controller('relay/v1/budgets')
export class BudgetsController {
  constructor(private readonly budgets: BudgetsService) {}

  @Get()
  @RequirePermission('BILLING', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListBudgetsQueryDto,
  ): Promise<Page<BudgetResponse>> {
    return this.budgets.list(ctx, query);
  }

  @Post()
  @Created()
  @RequirePermission('BILLING', 'WRITE')
  create(@Ctx() ctx: RequestContext, @Body() dto: CreateBudgetDto): Promise<BudgetResponse> {
    return this.budgets.create(ctx, dto);
  }

  @Get(':budgetId')
  @RequirePermission('BILLING', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('budgetId', uuidParam('budgetId')) id: string,
  ): Promise<BudgetResponse> {
    return this.budgets.get(ctx, id);
  }

  @Patch(':budgetId')
  @RequirePermission('BILLING', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('budgetId', uuidParam('budgetId')) id: string,
    @Body() dto: UpdateBudgetDto,
  ): Promise<BudgetResponse> {
    return this.budgets.update(ctx, id, dto);
  }

  @Delete(':budgetId')
  @HttpCode(204)
  @RequirePermission('BILLING', 'WRITE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('budgetId', uuidParam('budgetId')) id: string,
  ): Promise<void> {
    return this.budgets.remove(ctx, id);
  }
}

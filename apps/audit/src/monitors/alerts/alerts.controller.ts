import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Page, uuidParam } from '@agp/http';

import { AlertResponse } from './alert-response';
import { AlertsLifecycleService } from './alerts-lifecycle.service';
import { AlertsQueryService } from './alerts-query.service';
import { DismissAlertDto } from './dto/dismiss-alert.dto';
import { LifecycleActionDto } from './dto/lifecycle-action.dto';
import { ListAlertsQueryDto } from './dto/list-alerts-query.dto';

@Controller('audit/v1/monitors/alerts')
export class AlertsController {
  constructor(
    private readonly query: AlertsQueryService,
    private readonly lifecycle: AlertsLifecycleService,
  ) {}

  @Get()
  @RequirePermission('AUDIT', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListAlertsQueryDto,
  ): Promise<Page<AlertResponse>> {
    return this.query.list(ctx.tenantId, query);
  }

  @Get(':alertId')
  @RequirePermission('AUDIT', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('alertId', uuidParam('alertId')) alertId: string,
  ): Promise<AlertResponse> {
    return this.query.get(ctx.tenantId, alertId);
  }

  @Post(':alertId/acknowledge')
  @HttpCode(200)
  @RequirePermission('AUDIT', 'WRITE')
  acknowledge(
    @Ctx() ctx: RequestContext,
    @Param('alertId', uuidParam('alertId')) alertId: string,
    @Body() dto: LifecycleActionDto,
  ): Promise<AlertResponse> {
    return this.lifecycle.change(ctx, alertId, 'acknowledge', dto);
  }

  @Post(':alertId/resolve')
  @HttpCode(200)
  @RequirePermission('AUDIT', 'WRITE')
  resolve(
    @Ctx() ctx: RequestContext,
    @Param('alertId', uuidParam('alertId')) alertId: string,
    @Body() dto: LifecycleActionDto,
  ): Promise<AlertResponse> {
    return this.lifecycle.change(ctx, alertId, 'resolve', dto);
  }

  @Post(':alertId/dismiss')
  @HttpCode(200)
  @RequirePermission('AUDIT', 'WRITE')
  dismiss(
    @Ctx() ctx: RequestContext,
    @Param('alertId', uuidParam('alertId')) alertId: string,
    @Body() dto: DismissAlertDto,
  ): Promise<AlertResponse> {
    return this.lifecycle.change(ctx, alertId, 'dismiss', dto);
  }

  @Post(':alertId/reopen')
  @HttpCode(200)
  @RequirePermission('AUDIT', 'WRITE')
  reopen(
    @Ctx() ctx: RequestContext,
    @Param('alertId', uuidParam('alertId')) alertId: string,
    @Body() dto: LifecycleActionDto,
  ): Promise<AlertResponse> {
    return this.lifecycle.change(ctx, alertId, 'reopen', dto);
  }
}

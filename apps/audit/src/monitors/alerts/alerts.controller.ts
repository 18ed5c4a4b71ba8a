import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { CurrentPrincipal, Principal, RequirePermission } from '@agp/auth';
import { Page } from '@agp/http';

import { actorOf } from '../common/actor';
import { CorrelationId } from '../common/correlation-id.decorator';
import { AlertResponse } from './alert-response';
import { AlertsLifecycleService } from './alerts-lifecycle.service';
import { AlertsQueryService } from './alerts-query.service';
import { DismissAlertDto } from './dto/dismiss-alert.dto';
import { LifecycleActionDto } from './dto/lifecycle-action.dto';
import { ListAlertsQueryDto } from './dto/list-alerts-query.dto';

const ALERT_ID = new ParseUUIDPipe({ version: undefined });

@Controller('audit/v1/monitors/alerts')
export class AlertsController {
  constructor(
    private readonly query: AlertsQueryService,
    private readonly lifecycle: AlertsLifecycleService,
  ) {}

  @Get()
  @RequirePermission('AUDIT', 'READ')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListAlertsQueryDto,
  ): Promise<Page<AlertResponse>> {
    return this.query.list(principal.tenantId, query);
  }

  @Get(':alertId')
  @RequirePermission('AUDIT', 'READ')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('alertId', ALERT_ID) alertId: string,
  ): Promise<AlertResponse> {
    return this.query.get(principal.tenantId, alertId);
  }

  /** Operation 1. */
  @Post(':alertId/acknowledge')
  @HttpCode(200)
  @RequirePermission('AUDIT', 'WRITE')
  acknowledge(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('alertId', ALERT_ID) alertId: string,
    @Body() dto: LifecycleActionDto,
  ): Promise<AlertResponse> {
    return this.lifecycle.change(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      alertId,
      'acknowledge',
      dto,
    );
  }

  @Post(':alertId/resolve')
  @HttpCode(200)
  @RequirePermission('AUDIT', 'WRITE')
  resolve(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('alertId', ALERT_ID) alertId: string,
    @Body() dto: LifecycleActionDto,
  ): Promise<AlertResponse> {
    return this.lifecycle.change(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      alertId,
      'resolve',
      dto,
    );
  }

  @Post(':alertId/dismiss')
  @HttpCode(200)
  @RequirePermission('AUDIT', 'WRITE')
  dismiss(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('alertId', ALERT_ID) alertId: string,
    @Body() dto: DismissAlertDto,
  ): Promise<AlertResponse> {
    return this.lifecycle.change(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      alertId,
      'dismiss',
      dto,
    );
  }

  @Post(':alertId/reopen')
  @HttpCode(200)
  @RequirePermission('AUDIT', 'WRITE')
  reopen(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('alertId', ALERT_ID) alertId: string,
    @Body() dto: LifecycleActionDto,
  ): Promise<AlertResponse> {
    return this.lifecycle.change(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      alertId,
      'reopen',
      dto,
    );
  }
}

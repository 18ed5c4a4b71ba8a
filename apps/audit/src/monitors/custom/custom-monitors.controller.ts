import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import { CurrentPrincipal, Principal, RequirePermission } from '@agp/auth';
import { Page } from '@agp/http';

import { actorOf } from '../common/actor';
import { Created } from '@agp/http';
import { CorrelationId } from '../common/correlation-id.decorator';
import { CreateMonitorDto } from './dto/create-monitor.dto';
import { ListMonitorsQueryDto } from './dto/list-monitors-query.dto';
import { UpdateMonitorDto } from './dto/update-monitor.dto';
import { CustomMonitorsService } from './custom-monitors.service';
import { MonitorResponse } from './monitor-definition';

const MONITOR_ID = new ParseUUIDPipe({ version: undefined });

/** `/audit/v1/monitors` (issue 17): custom monitors beside the built-in SYSTEM_TEMPLATE ones. */
@Controller('audit/v1/monitors')
export class CustomMonitorsController {
  constructor(private readonly monitors: CustomMonitorsService) {}

  @Get()
  @RequirePermission('AUDIT', 'READ')
  list(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Query() query: ListMonitorsQueryDto,
  ): Promise<Page<MonitorResponse>> {
    return this.monitors.list({ tenantId: principal.tenantId, correlationId }, query);
  }

  @Post()
  @Created()
  @RequirePermission('AUDIT', 'WRITE')
  create(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Body() dto: CreateMonitorDto,
  ): Promise<MonitorResponse> {
    return this.monitors.create(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      dto,
    );
  }

  @Get(':monitorId')
  @RequirePermission('AUDIT', 'READ')
  get(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('monitorId', MONITOR_ID) id: string,
  ): Promise<MonitorResponse> {
    return this.monitors.get({ tenantId: principal.tenantId, correlationId }, id);
  }

  @Patch(':monitorId')
  @RequirePermission('AUDIT', 'WRITE')
  update(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('monitorId', MONITOR_ID) id: string,
    @Body() dto: UpdateMonitorDto,
  ): Promise<MonitorResponse> {
    return this.monitors.update(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      id,
      dto,
    );
  }

  @Delete(':monitorId')
  @HttpCode(204)
  @RequirePermission('AUDIT', 'DELETE')
  remove(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('monitorId', MONITOR_ID) id: string,
  ): Promise<void> {
    return this.monitors.remove(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      id,
    );
  }
}

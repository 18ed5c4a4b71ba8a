import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { CreateMonitorDto } from './dto/create-monitor.dto';
import { ListMonitorsQueryDto } from './dto/list-monitors-query.dto';
import { UpdateMonitorDto } from './dto/update-monitor.dto';
import { CustomMonitorsService } from './custom-monitors.service';
import { MonitorResponse } from '../engine/custom/monitor-definition';

/** `/audit/v1/monitors` (issue 17): custom monitors beside the built-in SYSTEM_TEMPLATE ones. */
@Controller('audit/v1/monitors')
export class CustomMonitorsController {
  constructor(private readonly monitors: CustomMonitorsService) {}

  @Get()
  @RequirePermission('AUDIT', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListMonitorsQueryDto,
  ): Promise<Page<MonitorResponse>> {
    return this.monitors.list(ctx, query);
  }

  @Post()
  @Created()
  @RequirePermission('AUDIT', 'WRITE')
  create(@Ctx() ctx: RequestContext, @Body() dto: CreateMonitorDto): Promise<MonitorResponse> {
    return this.monitors.create(ctx, dto);
  }

  @Get(':monitorId')
  @RequirePermission('AUDIT', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('monitorId', uuidParam('monitorId')) id: string,
  ): Promise<MonitorResponse> {
    return this.monitors.get(ctx, id);
  }

  @Patch(':monitorId')
  @RequirePermission('AUDIT', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('monitorId', uuidParam('monitorId')) id: string,
    @Body() dto: UpdateMonitorDto,
  ): Promise<MonitorResponse> {
    return this.monitors.update(ctx, id, dto);
  }

  @Delete(':monitorId')
  @HttpCode(204)
  @RequirePermission('AUDIT', 'DELETE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('monitorId', uuidParam('monitorId')) id: string,
  ): Promise<void> {
    return this.monitors.remove(ctx, id);
  }
}

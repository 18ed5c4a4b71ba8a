import { Body, Controller, Get, Put } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';

import { UpdateMonitorConfigDto } from './dto/update-monitor-config.dto';
import { MonitorConfigResponse, MonitorConfigService } from './monitor-config.service';

@Controller('audit/v1/monitors/config')
export class MonitorConfigController {
  constructor(private readonly configService: MonitorConfigService) {}

  @Get()
  @RequirePermission('AUDIT', 'READ')
  get(@Ctx() ctx: RequestContext): Promise<MonitorConfigResponse> {
    return this.configService.get(ctx);
  }

  @Put()
  @RequirePermission('AUDIT', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Body() dto: UpdateMonitorConfigDto,
  ): Promise<MonitorConfigResponse> {
    return this.configService.update(ctx, dto);
  }
}

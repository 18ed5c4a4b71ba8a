import { Body, Controller, Get, Put } from '@nestjs/common';
import { CurrentPrincipal, Principal, RequirePermission } from '@agp/auth';

import { CorrelationId } from '../common/correlation-id.decorator';
import { actorOf } from '../common/actor';
import { UpdateMonitorConfigDto } from './dto/update-monitor-config.dto';
import { MonitorConfigResponse, MonitorConfigService } from './monitor-config.service';

@Controller('audit/v1/monitors/config')
export class MonitorConfigController {
  constructor(private readonly configService: MonitorConfigService) {}

  @Get()
  @RequirePermission('AUDIT', 'READ')
  get(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
  ): Promise<MonitorConfigResponse> {
    return this.configService.get({ tenantId: principal.tenantId, correlationId });
  }

  @Put()
  @RequirePermission('AUDIT', 'WRITE')
  update(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Body() dto: UpdateMonitorConfigDto,
  ): Promise<MonitorConfigResponse> {
    return this.configService.update(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      dto,
    );
  }
}

import { Controller, Get, Inject, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';

import { DashboardQueryDto } from './dto/dashboard-query.dto';
import { DashboardService } from './dashboard.service';
import { Dashboard } from './dashboard.types';

@Controller('audit/v1/dashboard')
export class DashboardController {
  constructor(@Inject(DashboardService) private readonly dashboards: DashboardService) {}

  @Get()
  @RequirePermission('AUDIT', 'READ')
  get(@Ctx() ctx: RequestContext, @Query() query: DashboardQueryDto): Promise<Dashboard> {
    return this.dashboards.dashboard(ctx.tenantId, query);
  }
}

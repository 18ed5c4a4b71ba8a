import { Controller, Get, Param, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { uuidParam } from '@agp/http';

import { DecisionDiffQueryDto } from './dto/decision-diff-query.dto';
import { ShadowReportResponse, ShadowReportService } from './shadow-report.service';

@Controller('relay/v1/policy-bindings')
export class ShadowReportController {
  constructor(private readonly reports: ShadowReportService) {}

  /** D49, D55: counts by action change over `from`…`to`, and the changed hops, paged (D31). */
  @Get(':bindingId/shadow-report')
  @RequirePermission('TENANT', 'READ')
  report(
    @Ctx() ctx: RequestContext,
    @Param('bindingId', uuidParam('bindingId')) bindingId: string,
    @Query() query: DecisionDiffQueryDto,
  ): Promise<ShadowReportResponse> {
    return this.reports.report(ctx, bindingId, query);
  }
}

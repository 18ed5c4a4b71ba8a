import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { FastifyReply } from 'fastify';

import { ExportEventsQueryDto } from './dto/export-events-query.dto';
import { ExportService } from './export.service';

@Controller('audit/v1/events')
export class ExportController {
  constructor(@Inject(ExportService) private readonly exports: ExportService) {}

  /** Operation 6 (D17). */
  @Get('export')
  @RequirePermission('AUDIT', 'READ')
  async export(
    @Ctx() ctx: RequestContext,
    @Query() query: ExportEventsQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const csv = await this.exports.export(ctx.tenantId, query);
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${csv.fileName}"`)
      .send(csv.body);
  }
}

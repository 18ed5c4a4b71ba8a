import { Controller, Get, Query, Res } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { FastifyReply } from 'fastify';

import { SpendQueryDto } from './dto/spend-query.dto';
import { SpendResponse, SpendService } from './spend.service';

/** D48: the ledger under BILLING (SP16). */
@Controller('relay/v1/spend')
export class SpendController {
  constructor(private readonly spend: SpendService) {}

  @Get()
  @RequirePermission('BILLING', 'READ')
  get(@Ctx() ctx: RequestContext, @Query() query: SpendQueryDto): Promise<SpendResponse> {
    return this.spend.spend(ctx, query);
  }

  /** SP14: one row per ledger line, CSV. */
  @Get('export')
  @RequirePermission('BILLING', 'READ')
  async export(
    @Ctx() ctx: RequestContext,
    @Query() query: SpendQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const csv = await this.spend.export(ctx, query);
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${csv.fileName}"`)
      .header('x-agp-truncated', String(csv.truncated))
      .send(csv.body);
  }
}

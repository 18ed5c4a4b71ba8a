import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Page, uuidParam } from '@agp/http';

import { DecideHitlRequestDto } from './dto/decide-hitl-request.dto';
import { ListHitlRequestsQueryDto } from './dto/list-hitl-requests-query.dto';
import { HitlService } from './hitl.service';
import { HitlRequestResponse } from './hitl.types';

/** D34: `/relay/v1/hitl-requests`, what reviewers read and decide. */
@Controller('relay/v1/hitl-requests')
export class HitlController {
  constructor(private readonly hitl: HitlService) {}

  @Get()
  @RequirePermission('HITL_REQUESTS', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListHitlRequestsQueryDto,
  ): Promise<Page<HitlRequestResponse>> {
    return this.hitl.list(ctx, query);
  }

  @Get(':hitlRequestId')
  @RequirePermission('HITL_REQUESTS', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('hitlRequestId', uuidParam('hitlRequestId')) id: string,
  ): Promise<HitlRequestResponse> {
    return this.hitl.get(ctx, id);
  }

  @Post(':hitlRequestId/approve')
  @HttpCode(200)
  @RequirePermission('HITL_REQUESTS', 'WRITE')
  approve(
    @Ctx() ctx: RequestContext,
    @Param('hitlRequestId', uuidParam('hitlRequestId')) id: string,
    @Body() dto: DecideHitlRequestDto,
  ): Promise<HitlRequestResponse> {
    return this.hitl.approve(ctx, id, dto);
  }

  @Post(':hitlRequestId/reject')
  @HttpCode(200)
  @RequirePermission('HITL_REQUESTS', 'WRITE')
  reject(
    @Ctx() ctx: RequestContext,
    @Param('hitlRequestId', uuidParam('hitlRequestId')) id: string,
    @Body() dto: DecideHitlRequestDto,
  ): Promise<HitlRequestResponse> {
    return this.hitl.reject(ctx, id, dto);
  }
}

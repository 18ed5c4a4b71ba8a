import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, PageQueryDto, uuidParam } from '@agp/http';

import { CreateRunDto } from './dto/create-run.dto';
import { RunResponse } from './dto/pack-responses';
import { EvaluationRunsService } from './evaluation-runs.service';

@Controller('relay/v1/evaluation-packs/:packId/runs')
export class EvaluationRunsController {
  constructor(private readonly runs: EvaluationRunsService) {}

  /** D15: 202 with the PENDING run record; Location names it. */
  @Post()
  @HttpCode(202)
  @Created('runId')
  @RequirePermission('TENANT', 'WRITE')
  start(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
    @Body() dto: CreateRunDto,
  ): Promise<RunResponse> {
    return this.runs.start(ctx, packId, dto);
  }

  @Get()
  @RequirePermission('TENANT', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<RunResponse>> {
    return this.runs.list(ctx, packId, query);
  }

  /** G21: beyond the specification; PENDING or RUNNING → CANCELED, a finished run 409. */
  @Post(':runId/cancel')
  @HttpCode(200)
  @RequirePermission('TENANT', 'WRITE')
  cancel(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
    @Param('runId', uuidParam('runId')) runId: string,
  ): Promise<RunResponse> {
    return this.runs.cancel(ctx, packId, runId);
  }

  @Get(':runId')
  @RequirePermission('TENANT', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
    @Param('runId', uuidParam('runId')) runId: string,
  ): Promise<RunResponse> {
    return this.runs.get(ctx, packId, runId);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, PageQueryDto, uuidParam } from '@agp/http';

import { CreateEvaluationDto, UpdateEvaluationDto } from './dto/evaluation.dto';
import { EvaluationResponse } from './dto/pack-responses';
import { EvaluationsService } from './evaluations.service';

@Controller('relay/v1/evaluation-packs/:packId/evaluations')
export class EvaluationsController {
  constructor(private readonly evaluations: EvaluationsService) {}

  @Post()
  @Created()
  @RequirePermission('TENANT', 'WRITE')
  create(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
    @Body() dto: CreateEvaluationDto,
  ): Promise<EvaluationResponse> {
    return this.evaluations.create(ctx, packId, dto);
  }

  @Get()
  @RequirePermission('TENANT', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<EvaluationResponse>> {
    return this.evaluations.list(ctx, packId, query);
  }

  @Get(':evaluationId')
  @RequirePermission('TENANT', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
    @Param('evaluationId', uuidParam('evaluationId')) evaluationId: string,
  ): Promise<EvaluationResponse> {
    return this.evaluations.get(ctx, packId, evaluationId);
  }

  @Patch(':evaluationId')
  @RequirePermission('TENANT', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
    @Param('evaluationId', uuidParam('evaluationId')) evaluationId: string,
    @Body() dto: UpdateEvaluationDto,
  ): Promise<EvaluationResponse> {
    return this.evaluations.update(ctx, packId, evaluationId, dto);
  }

  @Delete(':evaluationId')
  @HttpCode(204)
  @RequirePermission('TENANT', 'WRITE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
    @Param('evaluationId', uuidParam('evaluationId')) evaluationId: string,
  ): Promise<void> {
    return this.evaluations.remove(ctx, packId, evaluationId);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { CreateEvaluationPackDto } from './dto/create-evaluation-pack.dto';
import { ListEvaluationPacksQueryDto } from './dto/list-evaluation-packs-query.dto';
import { EvaluationPackResponse } from './dto/pack-responses';
import { UpdateEvaluationPackDto } from './dto/update-evaluation-pack.dto';
import { EvaluationPacksService } from './evaluation-packs.service';

@Controller('relay/v1/evaluation-packs')
export class EvaluationPacksController {
  constructor(private readonly packs: EvaluationPacksService) {}

  /** Operation 3 (D15): 201 with Location. */
  @Post()
  @Created()
  @RequirePermission('TENANT', 'WRITE')
  create(
    @Ctx() ctx: RequestContext,
    @Body() dto: CreateEvaluationPackDto,
  ): Promise<EvaluationPackResponse> {
    return this.packs.create(ctx, dto);
  }

  @Get()
  @RequirePermission('TENANT', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListEvaluationPacksQueryDto,
  ): Promise<Page<EvaluationPackResponse>> {
    return this.packs.list(ctx, query);
  }

  @Get(':packId')
  @RequirePermission('TENANT', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
  ): Promise<EvaluationPackResponse> {
    return this.packs.get(ctx, packId);
  }

  @Patch(':packId')
  @RequirePermission('TENANT', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
    @Body() dto: UpdateEvaluationPackDto,
  ): Promise<EvaluationPackResponse> {
    return this.packs.update(ctx, packId, dto);
  }

  @Delete(':packId')
  @HttpCode(204)
  @RequirePermission('TENANT', 'WRITE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('packId', uuidParam('packId')) packId: string,
  ): Promise<void> {
    return this.packs.remove(ctx, packId);
  }
}

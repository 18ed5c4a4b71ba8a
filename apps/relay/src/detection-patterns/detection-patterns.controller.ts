import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { DetectionPatternResponse } from './detection-pattern.types';
import { DetectionPatternsService } from './detection-patterns.service';
import { CreateDetectionPatternDto } from './dto/create-detection-pattern.dto';
import { ListDetectionPatternsQueryDto } from './dto/list-detection-patterns-query.dto';
import { UpdateDetectionPatternDto } from './dto/update-detection-pattern.dto';

/** D53: tenant pattern sets, under TENANT as policy groups and evaluation packs are (GR15). */
@Controller('relay/v1/detection-patterns')
export class DetectionPatternsController {
  constructor(private readonly patterns: DetectionPatternsService) {}

  @Get()
  @RequirePermission('TENANT', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListDetectionPatternsQueryDto,
  ): Promise<Page<DetectionPatternResponse>> {
    return this.patterns.list(ctx, query);
  }

  @Post()
  @Created()
  @RequirePermission('TENANT', 'WRITE')
  create(
    @Ctx() ctx: RequestContext,
    @Body() dto: CreateDetectionPatternDto,
  ): Promise<DetectionPatternResponse> {
    return this.patterns.create(ctx, dto);
  }

  @Get(':patternId')
  @RequirePermission('TENANT', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('patternId', uuidParam('patternId')) id: string,
  ): Promise<DetectionPatternResponse> {
    return this.patterns.get(ctx, id);
  }

  @Patch(':patternId')
  @RequirePermission('TENANT', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('patternId', uuidParam('patternId')) id: string,
    @Body() dto: UpdateDetectionPatternDto,
  ): Promise<DetectionPatternResponse> {
    return this.patterns.update(ctx, id, dto);
  }

  @Delete(':patternId')
  @HttpCode(204)
  @RequirePermission('TENANT', 'WRITE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('patternId', uuidParam('patternId')) id: string,
  ): Promise<void> {
    return this.patterns.remove(ctx, id);
  }
}

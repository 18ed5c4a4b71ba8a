import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, uuidParam } from '@agp/http';

import { DecisionDiffQueryDto } from '../shadow/dto/decision-diff-query.dto';
import { CreateReplayDto } from './dto/create-replay.dto';
import { ReplayResponse, ReplaysService } from './replays.service';

/** D49, D55: replays of recorded hops against one version (governance.md G10). */
@Controller('relay/v1/policy-groups/:groupId/versions/:version/replays')
export class ReplaysController {
  constructor(private readonly replays: ReplaysService) {}

  /** 201 PENDING; it runs in the background (GET it for progress and the result). */
  @Post()
  @Created('replayId')
  @RequirePermission('TENANT', 'WRITE')
  create(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
    @Param('version') version: string,
    @Body() dto: CreateReplayDto,
  ): Promise<ReplayResponse> {
    return this.replays.create(ctx, groupId, version, dto);
  }

  /** Progress, and the counts and changed hops so far (paged as D31; `from`/`to` narrow them). */
  @Get(':replayId')
  @RequirePermission('TENANT', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
    @Param('version') version: string,
    @Param('replayId', uuidParam('replayId')) replayId: string,
    @Query() query: DecisionDiffQueryDto,
  ): Promise<ReplayResponse> {
    return this.replays.get(ctx, groupId, version, replayId, query);
  }

  @Post(':replayId/cancel')
  @HttpCode(200)
  @RequirePermission('TENANT', 'WRITE')
  cancel(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
    @Param('version') version: string,
    @Param('replayId', uuidParam('replayId')) replayId: string,
  ): Promise<ReplayResponse> {
    return this.replays.cancel(ctx, groupId, version, replayId);
  }
}

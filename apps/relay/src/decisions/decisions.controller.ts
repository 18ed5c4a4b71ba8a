import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { uuidParam } from '@agp/http';

import { HopDecision } from './decision.types';
import { DecisionsService, PolicySettingsResponse } from './decisions.service';
import { DecideHopDto } from './dto/decide-hop.dto';
import { UpdatePolicySettingsDto } from './dto/update-policy-settings.dto';

@Controller('relay/v1')
export class DecisionsController {
  constructor(private readonly decisions: DecisionsService) {}

  /** Issue 6 §4: a decision for one hop, for users and tools; nothing is stored (R9). */
  @Post('policy-decisions')
  @HttpCode(200)
  @RequirePermission('TENANT', 'READ')
  decide(@Ctx() ctx: RequestContext, @Body() dto: DecideHopDto): Promise<HopDecision> {
    return this.decisions.decide(ctx, dto);
  }

  /** R20: the same decision from one version of a group alone, bound or not. */
  @Post('policy-groups/:groupId/versions/:version/test-runs')
  @HttpCode(200)
  @RequirePermission('TENANT', 'READ')
  testVersion(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
    @Param('version') version: string,
    @Body() dto: DecideHopDto,
  ): Promise<HopDecision> {
    return this.decisions.testVersion(ctx, groupId, version, dto);
  }

  @Get('policy-settings')
  @RequirePermission('TENANT', 'READ')
  getSettings(@Ctx() ctx: RequestContext): Promise<PolicySettingsResponse> {
    return this.decisions.getSettings(ctx);
  }

  @Patch('policy-settings')
  @RequirePermission('TENANT', 'WRITE')
  updateSettings(
    @Ctx() ctx: RequestContext,
    @Body() dto: UpdatePolicySettingsDto,
  ): Promise<PolicySettingsResponse> {
    return this.decisions.updateSettings(ctx, dto);
  }
}

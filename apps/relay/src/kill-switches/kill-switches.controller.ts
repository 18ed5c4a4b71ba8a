import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { EngageKillSwitchDto } from './dto/engage-kill-switch.dto';
import { ListKillSwitchesQueryDto } from './dto/list-kill-switches-query.dto';
import { KillSwitch } from './kill-switch.types';
import { KillSwitchesService } from './kill-switches.service';

/** D35: `/relay/v1/kill-switches`, for tenant administrators (TENANT:ADMIN). */
@Controller('relay/v1/kill-switches')
export class KillSwitchesController {
  constructor(private readonly switches: KillSwitchesService) {}

  @Post()
  @Created()
  @RequirePermission('TENANT', 'ADMIN')
  engage(@Ctx() ctx: RequestContext, @Body() dto: EngageKillSwitchDto): Promise<KillSwitch> {
    return this.switches.engage(ctx, dto);
  }

  @Get()
  @RequirePermission('TENANT', 'ADMIN')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListKillSwitchesQueryDto,
  ): Promise<Page<KillSwitch>> {
    return this.switches.list(ctx, query);
  }

  @Get(':killSwitchId')
  @RequirePermission('TENANT', 'ADMIN')
  get(
    @Ctx() ctx: RequestContext,
    @Param('killSwitchId', uuidParam('killSwitchId')) id: string,
  ): Promise<KillSwitch> {
    return this.switches.get(ctx, id);
  }

  @Delete(':killSwitchId')
  @HttpCode(204)
  @RequirePermission('TENANT', 'ADMIN')
  release(
    @Ctx() ctx: RequestContext,
    @Param('killSwitchId', uuidParam('killSwitchId')) id: string,
  ): Promise<void> {
    return this.switches.release(ctx, id);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { CreateDowntimeDto } from './dto/create-downtime.dto';
import { CreateMuteDto } from './dto/create-mute.dto';
import { ListQuietQueryDto } from './dto/list-quiet-query.dto';
import { QuietService } from './quiet.service';
import { Downtime, Mute } from './quiet.types';

/** `/audit/v1/monitors/mutes` and `/downtimes` (M22): quiet when asked, with its audit trail. */
@Controller('audit/v1/monitors')
export class QuietController {
  constructor(private readonly quiet: QuietService) {}

  @Post('mutes')
  @Created()
  @RequirePermission('AUDIT', 'WRITE')
  mute(@Ctx() ctx: RequestContext, @Body() dto: CreateMuteDto): Promise<Mute> {
    return this.quiet.mute(ctx, dto);
  }

  @Get('mutes')
  @RequirePermission('AUDIT', 'READ')
  mutes(@Ctx() ctx: RequestContext, @Query() query: ListQuietQueryDto): Promise<Page<Mute>> {
    return this.quiet.listMutes(ctx, query);
  }

  @Get('mutes/:muteId')
  @RequirePermission('AUDIT', 'READ')
  getMute(
    @Ctx() ctx: RequestContext,
    @Param('muteId', uuidParam('muteId')) id: string,
  ): Promise<Mute> {
    return this.quiet.getMute(ctx, id);
  }

  /** Unmutes (D31: 204): the mute ends now and stays listed. */
  @Delete('mutes/:muteId')
  @HttpCode(204)
  @RequirePermission('AUDIT', 'WRITE')
  async unmute(
    @Ctx() ctx: RequestContext,
    @Param('muteId', uuidParam('muteId')) id: string,
  ): Promise<void> {
    await this.quiet.unmute(ctx, id);
  }

  @Post('downtimes')
  @Created()
  @RequirePermission('AUDIT', 'WRITE')
  schedule(@Ctx() ctx: RequestContext, @Body() dto: CreateDowntimeDto): Promise<Downtime> {
    return this.quiet.schedule(ctx, dto);
  }

  @Get('downtimes')
  @RequirePermission('AUDIT', 'READ')
  downtimes(
    @Ctx() ctx: RequestContext,
    @Query() query: ListQuietQueryDto,
  ): Promise<Page<Downtime>> {
    return this.quiet.listDowntimes(ctx, query);
  }

  @Get('downtimes/:downtimeId')
  @RequirePermission('AUDIT', 'READ')
  getDowntime(
    @Ctx() ctx: RequestContext,
    @Param('downtimeId', uuidParam('downtimeId')) id: string,
  ): Promise<Downtime & { inEffect: boolean }> {
    return this.quiet.getDowntime(ctx, id);
  }

  /** Cancels (D31: 204): no window starts any more, one in progress ends now; it stays listed. */
  @Delete('downtimes/:downtimeId')
  @HttpCode(204)
  @RequirePermission('AUDIT', 'WRITE')
  async cancel(
    @Ctx() ctx: RequestContext,
    @Param('downtimeId', uuidParam('downtimeId')) id: string,
  ): Promise<void> {
    await this.quiet.cancel(ctx, id);
  }
}

import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
} from '@nestjs/common';
import { CurrentPrincipal, Principal, RequirePermission } from '@agp/auth';
import { Created, Page } from '@agp/http';

import { actorOf } from '../common/actor';
import { CorrelationId } from '../common/correlation-id.decorator';
import { CreateDowntimeDto } from './dto/create-downtime.dto';
import { CreateMuteDto } from './dto/create-mute.dto';
import { ListQuietQueryDto } from './dto/list-quiet-query.dto';
import { QuietService } from './quiet.service';
import { Downtime, Mute } from './quiet.types';

const ID = new ParseUUIDPipe({ version: undefined });

/** `/audit/v1/monitors/mutes` and `/downtimes` (M22): quiet when asked, with its audit trail. */
@Controller('audit/v1/monitors')
export class QuietController {
  constructor(private readonly quiet: QuietService) {}

  @Post('mutes')
  @Created()
  @RequirePermission('AUDIT', 'WRITE')
  mute(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Body() dto: CreateMuteDto,
  ): Promise<Mute> {
    return this.quiet.mute(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      dto,
    );
  }

  @Get('mutes')
  @RequirePermission('AUDIT', 'READ')
  mutes(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Query() query: ListQuietQueryDto,
  ): Promise<Page<Mute>> {
    return this.quiet.listMutes({ tenantId: principal.tenantId, correlationId }, query);
  }

  @Get('mutes/:muteId')
  @RequirePermission('AUDIT', 'READ')
  getMute(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('muteId', ID) id: string,
  ): Promise<Mute> {
    return this.quiet.getMute({ tenantId: principal.tenantId, correlationId }, id);
  }

  /** Unmutes (D31: 204): the mute ends now and stays listed. */
  @Delete('mutes/:muteId')
  @HttpCode(204)
  @RequirePermission('AUDIT', 'WRITE')
  async unmute(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('muteId', ID) id: string,
  ): Promise<void> {
    await this.quiet.unmute(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      id,
    );
  }

  @Post('downtimes')
  @Created()
  @RequirePermission('AUDIT', 'WRITE')
  schedule(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Body() dto: CreateDowntimeDto,
  ): Promise<Downtime> {
    return this.quiet.schedule(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      dto,
    );
  }

  @Get('downtimes')
  @RequirePermission('AUDIT', 'READ')
  downtimes(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Query() query: ListQuietQueryDto,
  ): Promise<Page<Downtime>> {
    return this.quiet.listDowntimes({ tenantId: principal.tenantId, correlationId }, query);
  }

  @Get('downtimes/:downtimeId')
  @RequirePermission('AUDIT', 'READ')
  getDowntime(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('downtimeId', ID) id: string,
  ): Promise<Downtime & { inEffect: boolean }> {
    return this.quiet.getDowntime({ tenantId: principal.tenantId, correlationId }, id);
  }

  /** Cancels (D31: 204): no window starts any more, one in progress ends now; it stays listed. */
  @Delete('downtimes/:downtimeId')
  @HttpCode(204)
  @RequirePermission('AUDIT', 'WRITE')
  async cancel(
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Param('downtimeId', ID) id: string,
  ): Promise<void> {
    await this.quiet.cancel(
      actorOf(principal),
      { tenantId: principal.tenantId, correlationId },
      id,
    );
  }
}

import { Body, Controller, Get, Patch } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';

import { UpdateTrafficSettingsDto } from './dto/update-traffic-settings.dto';
import { TrafficSettingsResponse, TrafficSettingsService } from './traffic-settings.service';

/** The tenant's traffic settings (D34, D36, D40), beside its policy settings (D22). */
@Controller('relay/v1/traffic-settings')
export class TrafficSettingsController {
  constructor(private readonly settings: TrafficSettingsService) {}

  @Get()
  @RequirePermission('TENANT', 'READ')
  get(@Ctx() ctx: RequestContext): Promise<TrafficSettingsResponse> {
    return this.settings.get(ctx);
  }

  @Patch()
  @RequirePermission('TENANT', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Body() dto: UpdateTrafficSettingsDto,
  ): Promise<TrafficSettingsResponse> {
    return this.settings.update(ctx, dto);
  }
}

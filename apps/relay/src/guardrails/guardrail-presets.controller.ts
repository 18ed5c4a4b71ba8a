import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';

import {
  GuardrailPresetSummary,
  InstallGuardrailPresetsDto,
  InstalledPreset,
} from './dto/install-guardrail-presets.dto';
import { GuardrailPresetsService } from './guardrail-presets.service';

/** GR11: the catalogue of ready-made guardrail policies, and installing them in one call. */
@Controller('relay/v1/guardrail-presets')
export class GuardrailPresetsController {
  constructor(private readonly presets: GuardrailPresetsService) {}

  @Get()
  @RequirePermission('TENANT', 'READ')
  list(): { items: GuardrailPresetSummary[] } {
    return { items: this.presets.catalogue() };
  }

  @Post('install')
  @HttpCode(201)
  @RequirePermission('TENANT', 'WRITE')
  async install(
    @Ctx() ctx: RequestContext,
    @Body() dto: InstallGuardrailPresetsDto,
  ): Promise<{ items: InstalledPreset[] }> {
    return { items: await this.presets.install(ctx, dto) };
  }
}

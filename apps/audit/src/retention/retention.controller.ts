import { Body, Controller, Get, Inject, Put } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';

import { UpdateRetentionDto } from './dto/update-retention.dto';
import { RetentionService } from './retention.service';
import { RetentionPolicy } from './retention.types';

@Controller('audit/v1/retention')
export class RetentionController {
  constructor(@Inject(RetentionService) private readonly retention: RetentionService) {}

  @Get()
  @RequirePermission('AUDIT', 'READ')
  get(@Ctx() ctx: RequestContext): Promise<RetentionPolicy> {
    return this.retention.get(ctx.tenantId);
  }

  @Put()
  @RequirePermission('AUDIT', 'WRITE')
  update(@Ctx() ctx: RequestContext, @Body() dto: UpdateRetentionDto): Promise<RetentionPolicy> {
    return this.retention.update(ctx, dto);
  }
}

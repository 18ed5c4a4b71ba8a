import { Body, Controller, Get, Inject, Put } from '@nestjs/common';
import { CurrentPrincipal, Principal, RequirePermission } from '@agp/auth';

import { RequestCorrelationId } from '../common/correlation-id.decorator';
import { UpdateRetentionDto } from './dto/update-retention.dto';
import { RetentionService } from './retention.service';
import { RetentionPolicy } from './retention.types';

@Controller('audit/v1/retention')
export class RetentionController {
  constructor(@Inject(RetentionService) private readonly retention: RetentionService) {}

  @Get()
  @RequirePermission('AUDIT', 'READ')
  get(@CurrentPrincipal() principal: Principal): Promise<RetentionPolicy> {
    return this.retention.get(principal.tenantId);
  }

  @Put()
  @RequirePermission('AUDIT', 'WRITE')
  update(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: UpdateRetentionDto,
    @RequestCorrelationId() correlationId: string,
  ): Promise<RetentionPolicy> {
    return this.retention.update(principal, dto, correlationId);
  }
}

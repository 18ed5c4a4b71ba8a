import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { CreateGovernanceRecordDto } from './dto/create-governance-record.dto';
import { ListGovernanceRecordsQueryDto } from './dto/list-governance-records-query.dto';
import { PutRiskTiersDto } from './dto/put-risk-tiers.dto';
import { ReviewGovernanceRecordDto } from './dto/review-governance-record.dto';
import { UpdateGovernanceRecordDto } from './dto/update-governance-record.dto';
import { GovernanceRecordsService } from './governance-records.service';
import { GovernanceRecord } from './governance.types';
import { RiskTier } from './risk-tiers';
import { RiskTiersService } from './risk-tiers.service';

/** Issue 17, G4: a record is guarded by its subject's registry role (the service checks). */
@Controller('relay/v1/governance')
export class GovernanceController {
  constructor(
    private readonly records: GovernanceRecordsService,
    private readonly tiers: RiskTiersService,
  ) {}

  @Get('risk-tiers')
  @RequirePermission('REGISTRY', 'READ')
  getTiers(@Ctx() ctx: RequestContext): Promise<{ tiers: readonly RiskTier[] }> {
    return this.tiers.get(ctx);
  }

  @Put('risk-tiers')
  @RequirePermission('TENANT', 'ADMIN')
  putTiers(
    @Ctx() ctx: RequestContext,
    @Body() dto: PutRiskTiersDto,
  ): Promise<{ tiers: readonly RiskTier[] }> {
    return this.tiers.put(ctx, dto);
  }

  @Post('records')
  @Created()
  create(
    @Ctx() ctx: RequestContext,
    @Body() dto: CreateGovernanceRecordDto,
  ): Promise<GovernanceRecord> {
    return this.records.create(ctx, dto);
  }

  @Get('records')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListGovernanceRecordsQueryDto,
  ): Promise<Page<GovernanceRecord>> {
    return this.records.list(ctx, query);
  }

  @Get('records/:recordId')
  get(
    @Ctx() ctx: RequestContext,
    @Param('recordId', uuidParam('recordId')) id: string,
  ): Promise<GovernanceRecord> {
    return this.records.get(ctx, id);
  }

  @Patch('records/:recordId')
  update(
    @Ctx() ctx: RequestContext,
    @Param('recordId', uuidParam('recordId')) id: string,
    @Body() dto: UpdateGovernanceRecordDto,
  ): Promise<GovernanceRecord> {
    return this.records.update(ctx, id, dto);
  }

  @Delete('records/:recordId')
  @HttpCode(204)
  remove(
    @Ctx() ctx: RequestContext,
    @Param('recordId', uuidParam('recordId')) id: string,
  ): Promise<void> {
    return this.records.remove(ctx, id);
  }

  @Post('records/:recordId/reviews')
  @HttpCode(200)
  review(
    @Ctx() ctx: RequestContext,
    @Param('recordId', uuidParam('recordId')) id: string,
    @Body() dto: ReviewGovernanceRecordDto,
  ): Promise<GovernanceRecord> {
    return this.records.review(ctx, id, dto);
  }
}

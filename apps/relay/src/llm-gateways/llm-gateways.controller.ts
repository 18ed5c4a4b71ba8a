import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { RequirePermission } from '@agp/auth';
import { Page } from '@agp/http';

import { Created } from '../common/created.decorator';
import { Ctx, RequestContext } from '../common/request-context';
import { uuidParam } from '../common/uuid-param';
import { CatalogEntry } from '../registry/catalog.repository';
import { ListCatalogQueryDto } from '../registry/list-catalog-query.dto';
import { CreateLlmGatewayDto } from './dto/create-llm-gateway.dto';
import { UpdateLlmGatewayDto } from './dto/update-llm-gateway.dto';
import { LlmGatewaysService } from './llm-gateways.service';

@Controller('relay/v1/llm-gateways')
export class LlmGatewaysController {
  constructor(private readonly gateways: LlmGatewaysService) {}

  @Post()
  @Created()
  @RequirePermission('LLM_GATEWAY', 'WRITE')
  create(@Ctx() ctx: RequestContext, @Body() dto: CreateLlmGatewayDto): Promise<CatalogEntry> {
    return this.gateways.create(ctx, dto);
  }

  @Get()
  @RequirePermission('LLM_GATEWAY', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListCatalogQueryDto,
  ): Promise<Page<CatalogEntry>> {
    return this.gateways.list(ctx, query);
  }

  @Get(':gatewayId')
  @RequirePermission('LLM_GATEWAY', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('gatewayId', uuidParam('gatewayId')) id: string,
  ): Promise<CatalogEntry> {
    return this.gateways.get(ctx, id);
  }

  @Patch(':gatewayId')
  @RequirePermission('LLM_GATEWAY', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('gatewayId', uuidParam('gatewayId')) id: string,
    @Body() dto: UpdateLlmGatewayDto,
  ): Promise<CatalogEntry> {
    return this.gateways.update(ctx, id, dto);
  }

  @Delete(':gatewayId')
  @HttpCode(204)
  @RequirePermission('LLM_GATEWAY', 'DELETE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('gatewayId', uuidParam('gatewayId')) id: string,
  ): Promise<void> {
    return this.gateways.remove(ctx, id);
  }
}

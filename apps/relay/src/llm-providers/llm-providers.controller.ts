import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { RequirePermission } from '@agp/auth';
import { Page } from '@agp/http';

import { Created } from '../common/created.decorator';
import { Ctx, RequestContext } from '../common/request-context';
import { uuidParam } from '../common/uuid-param';
import { CatalogEntry } from '../registry/catalog.repository';
import { ListCatalogQueryDto } from '../registry/list-catalog-query.dto';
import { CreateLlmProviderDto } from './dto/create-llm-provider.dto';
import { UpdateLlmProviderDto } from './dto/update-llm-provider.dto';
import { LlmProvidersService } from './llm-providers.service';

/** D39: `/relay/v1/llm-providers`, under the LLM_GATEWAY permission as the gateways are. */
@Controller('relay/v1/llm-providers')
export class LlmProvidersController {
  constructor(private readonly providers: LlmProvidersService) {}

  @Post()
  @Created()
  @RequirePermission('LLM_GATEWAY', 'WRITE')
  create(@Ctx() ctx: RequestContext, @Body() dto: CreateLlmProviderDto): Promise<CatalogEntry> {
    return this.providers.create(ctx, dto);
  }

  @Get()
  @RequirePermission('LLM_GATEWAY', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListCatalogQueryDto,
  ): Promise<Page<CatalogEntry>> {
    return this.providers.list(ctx, query);
  }

  @Get(':providerId')
  @RequirePermission('LLM_GATEWAY', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('providerId', uuidParam('providerId')) id: string,
  ): Promise<CatalogEntry> {
    return this.providers.get(ctx, id);
  }

  @Patch(':providerId')
  @RequirePermission('LLM_GATEWAY', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('providerId', uuidParam('providerId')) id: string,
    @Body() dto: UpdateLlmProviderDto,
  ): Promise<CatalogEntry> {
    return this.providers.update(ctx, id, dto);
  }

  @Delete(':providerId')
  @HttpCode(204)
  @RequirePermission('LLM_GATEWAY', 'DELETE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('providerId', uuidParam('providerId')) id: string,
  ): Promise<void> {
    return this.providers.remove(ctx, id);
  }
}

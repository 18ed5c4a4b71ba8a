import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, PageQueryDto, uuidParam } from '@agp/http';

import { CreateModelPriceDto, UpdateModelPriceDto } from './dto/model-price.dto';
import { ModelPriceResponse, ModelPricesService } from './model-prices.service';

/** D48, D60: prices per model, under BILLING. */
@Controller('relay/v1/model-prices')
export class ModelPricesController {
  constructor(private readonly prices: ModelPricesService) {}

  @Get()
  @RequirePermission('BILLING', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: PageQueryDto,
  ): Promise<Page<ModelPriceResponse>> {
    return this.prices.list(ctx, query);
  }

  @Post()
  @Created()
  @RequirePermission('BILLING', 'WRITE')
  create(
    @Ctx() ctx: RequestContext,
    @Body() dto: CreateModelPriceDto,
  ): Promise<ModelPriceResponse> {
    return this.prices.create(ctx, dto);
  }

  @Get(':priceId')
  @RequirePermission('BILLING', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('priceId', uuidParam('priceId')) id: string,
  ): Promise<ModelPriceResponse> {
    return this.prices.get(ctx, id);
  }

  @Patch(':priceId')
  @RequirePermission('BILLING', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('priceId', uuidParam('priceId')) id: string,
    @Body() dto: UpdateModelPriceDto,
  ): Promise<ModelPriceResponse> {
    return this.prices.update(ctx, id, dto);
  }

  @Delete(':priceId')
  @HttpCode(204)
  @RequirePermission('BILLING', 'WRITE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('priceId', uuidParam('priceId')) id: string,
  ): Promise<void> {
    return this.prices.remove(ctx, id);
  }
}

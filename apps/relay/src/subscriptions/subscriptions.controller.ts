import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { ListSubscriptionsQueryDto } from './dto/list-subscriptions-query.dto';
import { UpdateSubscriptionDto } from './dto/update-subscription.dto';
import { SubscriptionsService } from './subscriptions.service';
import { Subscription } from './subscription.types';

/** D32: `/relay/v1/subscriptions`, who may talk to whom, and the MCP tool grants. */
@Controller('relay/v1/subscriptions')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Post()
  @Created()
  @RequirePermission('REGISTRY', 'WRITE')
  create(@Ctx() ctx: RequestContext, @Body() dto: CreateSubscriptionDto): Promise<Subscription> {
    return this.subscriptions.create(ctx, dto);
  }

  @Get()
  @RequirePermission('REGISTRY', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListSubscriptionsQueryDto,
  ): Promise<Page<Subscription>> {
    return this.subscriptions.list(ctx, query);
  }

  @Get(':subscriptionId')
  @RequirePermission('REGISTRY', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('subscriptionId', uuidParam('subscriptionId')) id: string,
  ): Promise<Subscription> {
    return this.subscriptions.get(ctx, id);
  }

  @Patch(':subscriptionId')
  @RequirePermission('REGISTRY', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('subscriptionId', uuidParam('subscriptionId')) id: string,
    @Body() dto: UpdateSubscriptionDto,
  ): Promise<Subscription> {
    return this.subscriptions.update(ctx, id, dto);
  }

  @Delete(':subscriptionId')
  @HttpCode(204)
  @RequirePermission('REGISTRY', 'DELETE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('subscriptionId', uuidParam('subscriptionId')) id: string,
  ): Promise<void> {
    return this.subscriptions.remove(ctx, id);
  }
}

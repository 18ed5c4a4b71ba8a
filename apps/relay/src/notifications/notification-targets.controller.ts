import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, PageQueryDto, uuidParam } from '@agp/http';

import { CreateNotificationTargetDto } from './dto/create-notification-target.dto';
import { ListNotificationDeliveriesQueryDto } from './dto/list-notification-deliveries-query.dto';
import { UpdateNotificationTargetDto } from './dto/update-notification-target.dto';
import { NotificationTargetsService } from './notification-targets.service';
import {
  CreatedNotificationTargetResponse,
  NotificationDelivery,
  NotificationTargetResponse,
} from './notification.types';

/** D58: `/relay/v1/notification-targets` and each target's deliveries, under NOTIFICATIONS. */
@Controller('relay/v1/notification-targets')
export class NotificationTargetsController {
  constructor(private readonly targets: NotificationTargetsService) {}

  @Get()
  @RequirePermission('NOTIFICATIONS', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: PageQueryDto,
  ): Promise<Page<NotificationTargetResponse>> {
    return this.targets.list(ctx, query);
  }

  @Post()
  @Created()
  @RequirePermission('NOTIFICATIONS', 'WRITE')
  create(
    @Ctx() ctx: RequestContext,
    @Body() dto: CreateNotificationTargetDto,
  ): Promise<CreatedNotificationTargetResponse> {
    return this.targets.create(ctx, dto);
  }

  @Get(':targetId')
  @RequirePermission('NOTIFICATIONS', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('targetId', uuidParam('targetId')) id: string,
  ): Promise<NotificationTargetResponse> {
    return this.targets.get(ctx, id);
  }

  @Patch(':targetId')
  @RequirePermission('NOTIFICATIONS', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('targetId', uuidParam('targetId')) id: string,
    @Body() dto: UpdateNotificationTargetDto,
  ): Promise<NotificationTargetResponse> {
    return this.targets.update(ctx, id, dto);
  }

  @Delete(':targetId')
  @HttpCode(204)
  @RequirePermission('NOTIFICATIONS', 'DELETE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('targetId', uuidParam('targetId')) id: string,
  ): Promise<void> {
    return this.targets.remove(ctx, id);
  }

  @Get(':targetId/deliveries')
  @RequirePermission('NOTIFICATIONS', 'READ')
  deliveries(
    @Ctx() ctx: RequestContext,
    @Param('targetId', uuidParam('targetId')) id: string,
    @Query() query: ListNotificationDeliveriesQueryDto,
  ): Promise<Page<NotificationDelivery>> {
    return this.targets.listDeliveries(ctx, id, query);
  }
}

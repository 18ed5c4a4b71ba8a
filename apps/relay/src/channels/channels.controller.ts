import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import { RequirePermission } from '@agp/auth';
import { Page } from '@agp/http';

import { Created } from '../common/created.decorator';
import { Ctx, RequestContext } from '../common/request-context';
import { uuidParam } from '../common/uuid-param';
import { CatalogEntry } from '../registry/catalog.repository';
import { CatalogService } from '../registry/catalog.service';
import { ListCatalogQueryDto } from '../registry/list-catalog-query.dto';
import { CreateChannelDto } from './dto/create-channel.dto';
import { UpdateChannelDto } from './dto/update-channel.dto';
import { CHANNELS_CATALOG } from './channels.constants';

@Controller('relay/v1/channels')
export class ChannelsController {
  constructor(@Inject(CHANNELS_CATALOG) private readonly channels: CatalogService) {}

  @Post()
  @Created()
  @RequirePermission('CHANNELS', 'WRITE')
  create(@Ctx() ctx: RequestContext, @Body() dto: CreateChannelDto): Promise<CatalogEntry> {
    return this.channels.create(ctx, { ...dto });
  }

  @Get()
  @RequirePermission('CHANNELS', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListCatalogQueryDto,
  ): Promise<Page<CatalogEntry>> {
    return this.channels.list(ctx, query);
  }

  @Get(':channelId')
  @RequirePermission('CHANNELS', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('channelId', uuidParam('channelId')) id: string,
  ): Promise<CatalogEntry> {
    return this.channels.get(ctx, id);
  }

  @Patch(':channelId')
  @RequirePermission('CHANNELS', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('channelId', uuidParam('channelId')) id: string,
    @Body() dto: UpdateChannelDto,
  ): Promise<CatalogEntry> {
    return this.channels.update(ctx, id, { ...dto });
  }

  @Delete(':channelId')
  @HttpCode(204)
  @RequirePermission('CHANNELS', 'DELETE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('channelId', uuidParam('channelId')) id: string,
  ): Promise<void> {
    return this.channels.remove(ctx, id);
  }
}

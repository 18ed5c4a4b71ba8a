import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { RequirePermission } from '@agp/auth';
import { Page } from '@agp/http';

import { Created } from '../common/created.decorator';
import { Ctx, RequestContext } from '../common/request-context';
import { uuidParam } from '../common/uuid-param';
import { CatalogEntry } from '../registry/catalog.repository';
import { ListCatalogQueryDto } from '../registry/list-catalog-query.dto';
import { CreateMcpServerDto } from './dto/create-mcp-server.dto';
import { UpdateMcpServerDto } from './dto/update-mcp-server.dto';
import { McpServersService } from './mcp-servers.service';

@Controller('relay/v1/mcp-servers')
export class McpServersController {
  constructor(private readonly servers: McpServersService) {}

  @Post()
  @Created()
  @RequirePermission('MCP_REGISTRY', 'WRITE')
  create(@Ctx() ctx: RequestContext, @Body() dto: CreateMcpServerDto): Promise<CatalogEntry> {
    return this.servers.create(ctx, dto);
  }

  @Get()
  @RequirePermission('MCP_REGISTRY', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListCatalogQueryDto,
  ): Promise<Page<CatalogEntry>> {
    return this.servers.list(ctx, query);
  }

  @Get(':mcpServerId')
  @RequirePermission('MCP_REGISTRY', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('mcpServerId', uuidParam('mcpServerId')) id: string,
  ): Promise<CatalogEntry> {
    return this.servers.get(ctx, id);
  }

  @Patch(':mcpServerId')
  @RequirePermission('MCP_REGISTRY', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('mcpServerId', uuidParam('mcpServerId')) id: string,
    @Body() dto: UpdateMcpServerDto,
  ): Promise<CatalogEntry> {
    return this.servers.update(ctx, id, dto);
  }

  @Delete(':mcpServerId')
  @HttpCode(204)
  @RequirePermission('MCP_REGISTRY', 'DELETE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('mcpServerId', uuidParam('mcpServerId')) id: string,
  ): Promise<void> {
    return this.servers.remove(ctx, id);
  }
}

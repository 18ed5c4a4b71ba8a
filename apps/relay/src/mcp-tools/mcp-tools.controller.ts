import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { uuidParam } from '@agp/http';

import { PinToolsDto } from './dto/pin-tools.dto';
import { McpToolsService } from './mcp-tools.service';
import { ToolDefinitionListResponse } from './mcp-tools.types';

/** D51: the tool definitions the relay has seen on a server, and their approval (pinning). */
@Controller('relay/v1/mcp-servers/:mcpServerId/tools')
export class McpToolsController {
  constructor(private readonly tools: McpToolsService) {}

  @Get()
  @RequirePermission('MCP_REGISTRY', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<ToolDefinitionListResponse> {
    return this.tools.list(ctx, serverId);
  }

  @Post('pins')
  @HttpCode(200)
  @RequirePermission('MCP_REGISTRY', 'WRITE')
  pin(
    @Ctx() ctx: RequestContext,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
    @Body() dto: PinToolsDto,
  ): Promise<ToolDefinitionListResponse> {
    return this.tools.pin(ctx, serverId, dto);
  }
}

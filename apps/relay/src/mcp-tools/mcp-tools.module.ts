import { Module } from '@nestjs/common';

import { McpToolsController } from './mcp-tools.controller';
import { McpToolsService } from './mcp-tools.service';
import { ToolDefinitionsRepository } from './tool-definitions.repository';

/**
 * D51: tool definitions of MCP servers, recorded from traffic (by the MCP path, with the exported
 * repository) and pinned by administrators under /relay/v1/mcp-servers/{id}/tools.
 */
@Module({
  controllers: [McpToolsController],
  providers: [McpToolsService, ToolDefinitionsRepository],
  exports: [ToolDefinitionsRepository],
})
export class McpToolsModule {}

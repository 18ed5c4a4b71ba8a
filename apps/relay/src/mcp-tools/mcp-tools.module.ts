import { Module } from '@nestjs/common';

import { McpToolsController } from './mcp-tools.controller';
import { McpToolsService } from './mcp-tools.service';
import { ToolDefinitionsRepository } from './tool-definitions.repository';

/** D51: recorded from traffic by the MCP path, pinned by administrators. */
@Module({
  controllers: [McpToolsController],
  providers: [McpToolsService, ToolDefinitionsRepository],
  exports: [ToolDefinitionsRepository],
})
export class McpToolsModule {}

import { catalogController } from '../registry/catalog.controller';
import { CreateMcpServerDto } from './dto/create-mcp-server.dto';
import { UpdateMcpServerDto } from './dto/update-mcp-server.dto';
import { MCP_SERVERS_CATALOG } from './mcp-servers.constants';

/**
 * CRUD of MCP servers under /relay/v1/mcp-servers (the registry's one shape), answered by the
 * service that checks the URL against the egress rules and seals the credential (D37).
 */
export const McpServersController = catalogController({
  name: 'McpServersController',
  path: 'relay/v1/mcp-servers',
  idParam: 'mcpServerId',
  permission: 'MCP_REGISTRY',
  operations: MCP_SERVERS_CATALOG,
  createDto: CreateMcpServerDto,
  updateDto: UpdateMcpServerDto,
});

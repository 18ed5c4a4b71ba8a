import { catalogController } from '../registry/catalog.controller';
import { CreateMcpServerDto } from './dto/create-mcp-server.dto';
import { UpdateMcpServerDto } from './dto/update-mcp-server.dto';
import { MCP_SERVERS_CATALOG } from './mcp-servers.constants';

/** D37: the service checks the URL against egress rules and seals the credential. */
export const McpServersController = catalogController({
  name: 'McpServersController',
  path: 'relay/v1/mcp-servers',
  idParam: 'mcpServerId',
  permission: 'MCP_REGISTRY',
  operations: MCP_SERVERS_CATALOG,
  createDto: CreateMcpServerDto,
  updateDto: UpdateMcpServerDto,
});

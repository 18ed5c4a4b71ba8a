import { catalogController } from '../registry/catalog.controller';
import { ListAgentsQueryDto } from './dto/list-agents-query.dto';
import { UpdateAgentDto } from './dto/update-agent.dto';
import { AgentsService } from './agents.service';

/**
 * Agents under /relay/v1/agents: created and deleted in tenant-auth (D30), so the relay lists them,
 * reads one and keeps their metadata (R11), with the registry's one shape.
 */
export const AgentsController = catalogController({
  name: 'AgentsController',
  path: 'relay/v1/agents',
  idParam: 'agentId',
  permission: 'REGISTRY',
  operations: AgentsService,
  updateDto: UpdateAgentDto,
  listQuery: ListAgentsQueryDto,
  routes: ['list', 'get', 'update'],
});

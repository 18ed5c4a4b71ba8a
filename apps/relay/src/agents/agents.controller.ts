import { catalogController } from '../registry/catalog.controller';
import { ListAgentsQueryDto } from './dto/list-agents-query.dto';
import { UpdateAgentDto } from './dto/update-agent.dto';
import { AgentsService } from './agents.service';

/** D30, R11: created and deleted in tenant-auth; the relay lists them and keeps their metadata. */
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

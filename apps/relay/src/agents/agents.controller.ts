import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { RequirePermission } from '@agp/auth';
import { Page } from '@agp/http';

import { Ctx, RequestContext } from '../common/request-context';
import { uuidParam } from '../common/uuid-param';
import { AgentResponse } from './agents.repository';
import { AgentsService } from './agents.service';
import { ListAgentsQueryDto } from './dto/list-agents-query.dto';
import { UpdateAgentDto } from './dto/update-agent.dto';

/** Agents are created and deleted in tenant-auth (D30); the relay lists them and keeps their metadata (R11). */
@Controller('relay/v1/agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @RequirePermission('REGISTRY', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListAgentsQueryDto,
  ): Promise<Page<AgentResponse>> {
    return this.agents.list(ctx, query);
  }

  @Get(':agentId')
  @RequirePermission('REGISTRY', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
  ): Promise<AgentResponse> {
    return this.agents.get(ctx, agentId);
  }

  @Patch(':agentId')
  @RequirePermission('REGISTRY', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
    @Body() dto: UpdateAgentDto,
  ): Promise<AgentResponse & { webhookSecret?: string }> {
    return this.agents.update(ctx, agentId, dto);
  }
}

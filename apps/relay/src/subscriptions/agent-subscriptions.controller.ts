import { Controller, Get, Param, Query } from '@nestjs/common';
import { Page, PageQueryDto, uuidParam } from '@agp/http';
import { Ctx, RequestContext } from '@agp/auth';

import { SubscriptionsService } from './subscriptions.service';
import { AgentMcpServer, Subscription } from './subscription.types';

/**
 * D21: what the client library reads about its own agent. An agent token reads its own agent only
 * (403 for another, the specification's Errors); users need REGISTRY:READ (the service checks).
 */
@Controller('relay/v1/agents/:agentId')
export class AgentSubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Get('subscriptions')
  subscriptionsOf(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<Subscription>> {
    return this.subscriptions.ofAgent(ctx, agentId, query);
  }

  @Get('llm-gateway-subscriptions')
  llmGatewaySubscriptionsOf(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<Subscription>> {
    return this.subscriptions.ofAgent(ctx, agentId, query, 'AGENT_TO_LLM_GATEWAY');
  }

  @Get('mcp-servers')
  mcpServersOf(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<AgentMcpServer>> {
    return this.subscriptions.mcpServersOf(ctx, agentId, query);
  }
}

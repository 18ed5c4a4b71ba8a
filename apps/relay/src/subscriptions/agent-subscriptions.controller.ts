import { Controller, Get, Param, Query } from '@nestjs/common';
import { Ctx, RequestContext } from '@agp/auth';
import { Page, PageQueryDto, uuidParam } from '@agp/http';

import { SubscriptionsService } from './subscriptions.service';
import { AgentMcpServer, Subscription } from './subscription.types';

/** D21: an agent token reads its own agent only (403 otherwise; the service checks). */
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

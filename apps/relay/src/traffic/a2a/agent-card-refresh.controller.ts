import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { Ctx, RequestContext } from '@agp/auth';
import { uuidParam } from '@agp/http';

import { AgentCards, CardRefresh } from './agent-cards.service';

/**
 * D21: the client library refreshes an agent's card; the relay fetches it again and compares. Users
 * need REGISTRY:WRITE; an agent token may refresh its own agent's card only (the service checks, as
 * for D21's reads).
 */
@Controller('relay/v1/agents')
export class AgentCardRefreshController {
  constructor(private readonly cards: AgentCards) {}

  @Post(':agentId/agent-card/refresh')
  @HttpCode(200)
  refresh(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
  ): Promise<CardRefresh> {
    return this.cards.refresh(ctx, agentId);
  }
}

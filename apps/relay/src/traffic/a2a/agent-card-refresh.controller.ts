import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { Ctx, RequestContext } from '@agp/auth';
import { uuidParam } from '@agp/http';

import { AgentCards, CardRefresh } from './agent-cards.service';

/** D21: an agent token may refresh its own agent's card only (the service checks). */
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

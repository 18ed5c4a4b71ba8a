import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { RequirePermission } from '@agp/auth';

import { Ctx, RequestContext } from '../../common/request-context';
import { uuidParam } from '../../common/uuid-param';
import { AgentCards, CardRefresh } from './agent-cards.service';

/** D21: the client library refreshes an agent's card; the relay fetches it again and compares. */
@Controller('relay/v1/agents')
export class AgentCardRefreshController {
  constructor(private readonly cards: AgentCards) {}

  @Post(':agentId/agent-card/refresh')
  @HttpCode(200)
  @RequirePermission('REGISTRY', 'WRITE')
  refresh(
    @Ctx() ctx: RequestContext,
    @Param('agentId', uuidParam('agentId')) agentId: string,
  ): Promise<CardRefresh> {
    return this.cards.refresh(ctx, agentId);
  }
}

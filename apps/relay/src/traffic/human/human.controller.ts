import { Controller, Get, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { Page, PageQueryDto, uuidParam } from '@agp/http';
import { FastifyReply } from 'fastify';

import { replyWithA2a } from '../a2a/a2a.controller';
import { A2aRelayService } from '../a2a/a2a-relay.service';
import { AgentCardJson } from '../a2a/agent-card';
import { TrafficRequest, goneSignal } from '../pipeline/traffic-intake';
import { humanCallerOf } from './human-party';
import { ReachableAgent } from './reachable-agent';
import { ReachableAgentsRepository } from './reachable-agents.repository';

/** D43, D56, T60: A2A methods with a person's own token, under USER_TO_AGENT. */
@Controller('relay/human')
export class HumanController {
  private readonly logger = new Logger(HumanController.name);

  constructor(
    private readonly relay: A2aRelayService,
    private readonly reachable: ReachableAgentsRepository,
  ) {}

  /** traffic.md T61: the agents the signed-in person may talk to. */
  @Get()
  list(
    @Req() request: TrafficRequest,
    @Query() query: PageQueryDto,
  ): Promise<Page<ReachableAgent>> {
    const caller = humanCallerOf(request);
    return this.reachable.list(caller.tenantId, caller.agentId, query);
  }

  @Post(':agentId')
  async post(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('agentId', uuidParam('agentId')) agentId: string,
  ): Promise<void> {
    const caller = { ...humanCallerOf(request), signal: goneSignal(reply) };
    await replyWithA2a(reply, await this.relay.post(caller, agentId, request.body), this.logger);
  }

  @Get(':agentId/.well-known/agent-card.json')
  card(
    @Req() request: TrafficRequest,
    @Param('agentId', uuidParam('agentId')) agentId: string,
  ): Promise<AgentCardJson> {
    return this.relay.card(humanCallerOf(request), agentId);
  }
}

import { Controller, Get, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { uuidParam } from '@agp/http';
import { FastifyReply } from 'fastify';

import { TrafficRequest, agentCallerOf, goneSignal, sendStream } from '../pipeline/traffic-intake';
import { AgentCardJson } from './agent-card';
import { A2aAnswer } from './a2a-exchange';
import { A2aRelayService } from './a2a-relay.service';

/** D20, D38: only an agent's token may call (T38: A2A is agent to agent); D8 audience. */
@Controller('relay/a2a')
export class A2aController {
  private readonly logger = new Logger(A2aController.name);

  constructor(private readonly relay: A2aRelayService) {}

  @Post(':agentId')
  async post(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('agentId', uuidParam('agentId')) agentId: string,
  ): Promise<void> {
    const caller = { ...agentCallerOf(request, 'an agent over A2A'), signal: goneSignal(reply) };
    await replyWithA2a(reply, await this.relay.post(caller, agentId, request.body), this.logger);
  }

  @Get(':agentId/.well-known/agent-card.json')
  card(
    @Req() request: TrafficRequest,
    @Param('agentId', uuidParam('agentId')) agentId: string,
  ): Promise<AgentCardJson> {
    return this.relay.card(agentCallerOf(request, 'an agent over A2A'), agentId);
  }
}

/** An A2A answer on its way out: a JSON-RPC body, or a stream of events (D38). */
export async function replyWithA2a(
  reply: FastifyReply,
  answer: A2aAnswer,
  logger: Logger,
): Promise<void> {
  if (answer.kind === 'raw') {
    await reply.status(answer.status).headers(answer.headers).send(answer.body);
    return;
  }
  if (answer.kind === 'json') {
    await reply
      .status(answer.status)
      .headers(answer.headers ?? {})
      .type('application/json')
      .send(answer.body);
    return;
  }
  await sendStream(reply, answer, logger);
}

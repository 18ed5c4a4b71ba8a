import { Controller, Get, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { RequestWithPrincipal } from '@agp/auth';
import { HttpProblem, correlationIdOf, uuidParam } from '@agp/http';
import { FastifyReply, FastifyRequest } from 'fastify';

import { SseWriter } from '../mcp/sse-writer';
import { AgentCardJson } from './agent-card';
import { A2aAnswer } from './a2a-exchange';
import { A2aCaller, A2aRelayService } from './a2a-relay.service';

type AgentRequest = FastifyRequest & RequestWithPrincipal;

/**
 * D20, D38: the A2A traffic path, `{base_url}/relay/a2a/{agentId}` (JSON-RPC, answers as JSON or
 * SSE) and the agent's card beside it. The global guard has verified a token of the relay
 * audience (D8); the handlers only translate HTTP into a call of the relay and back.
 */
@Controller('relay/a2a')
export class A2aController {
  private readonly logger = new Logger(A2aController.name);

  constructor(private readonly relay: A2aRelayService) {}

  @Post(':agentId')
  async post(
    @Req() request: AgentRequest,
    @Res() reply: FastifyReply,
    @Param('agentId', uuidParam('agentId')) agentId: string,
  ): Promise<void> {
    const caller = { ...callerOf(request), signal: goneSignal(reply) };
    await this.send(reply, await this.relay.post(caller, agentId, request.body));
  }

  @Get(':agentId/.well-known/agent-card.json')
  card(
    @Req() request: AgentRequest,
    @Param('agentId', uuidParam('agentId')) agentId: string,
  ): Promise<AgentCardJson> {
    return this.relay.card(callerOf(request), agentId);
  }

  private async send(reply: FastifyReply, answer: A2aAnswer): Promise<void> {
    if (answer.kind === 'json') {
      await reply.status(answer.status).type('application/json').send(answer.body);
      return;
    }
    // The stream writes the raw response itself, so Fastify's own headers are carried over.
    const base = Object.fromEntries(
      Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)]),
    );
    reply.hijack();
    reply.raw.on('close', () => answer.cancel());
    const writer = new SseWriter(reply.raw, base);
    try {
      await answer.run(writer);
    } catch (error) {
      this.logger.error({ err: error }, 'A2A stream failed');
      writer.end();
    }
  }
}

/** Aborted when the caller's connection closes before the answer is complete. */
function goneSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) {
      gone.abort();
    }
  });
  return gone.signal;
}

/** Only an agent calls another agent through the relay (D20, D32 AGENT_TO_AGENT). */
function callerOf(request: AgentRequest): A2aCaller {
  const principal = request.principal;
  if (!principal || principal.kind !== 'AGENT') {
    throw new HttpProblem(403, 'forbidden', 'only an agent token may call an agent over A2A');
  }
  return {
    tenantId: principal.tenantId,
    agentId: principal.subject,
    correlationId: correlationIdOf(request.raw),
    headers: request.headers,
  };
}

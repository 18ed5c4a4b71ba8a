import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RequestWithPrincipal } from '@agp/auth';
import { correlationIdOf, uuidParam } from '@agp/http';
import { FastifyReply, FastifyRequest } from 'fastify';

import { SseWriter } from '../mcp/sse-writer';
import { LlmAnswer } from './llm-completions';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';
import { LlmCaller, LlmRelayService } from './llm-relay.service';

type AgentRequest = FastifyRequest & RequestWithPrincipal;

/**
 * D20, D39: the LLM path, `{base_url}/relay/llm/{gatewayId}/v1/...`, OpenAI-compatible. The global
 * guard has verified a relay-audience token (D8, T16); the handlers only translate HTTP into a call
 * of the relay and its answer back.
 */
@Controller('relay/llm')
export class LlmController {
  constructor(private readonly relay: LlmRelayService) {}

  @Post(':gatewayId/v1/chat/completions')
  async complete(
    @Req() request: AgentRequest,
    @Res() reply: FastifyReply,
    @Param('gatewayId', uuidParam('gatewayId')) gatewayId: string,
  ): Promise<void> {
    const caller = { ...callerOf(request), signal: goneSignal(reply) };
    await send(reply, await this.relay.complete(caller, gatewayId, request.body));
  }

  @Get(':gatewayId/v1/models')
  async models(
    @Req() request: AgentRequest,
    @Res() reply: FastifyReply,
    @Param('gatewayId', uuidParam('gatewayId')) gatewayId: string,
  ): Promise<void> {
    await send(reply, await this.relay.models(callerOf(request), gatewayId));
  }
}

async function send(reply: FastifyReply, answer: LlmAnswer): Promise<void> {
  if (answer.kind === 'json') {
    await reply
      .status(answer.status)
      .headers(answer.headers)
      .type('application/json')
      .send(answer.body);
    return;
  }
  let writer: SseWriter | undefined;
  // T20: the response is taken over only when its first event is ready; a refusal before that is
  // thrown here and answered as problem+json by the filter.
  const start = (): SseWriter => {
    const base = Object.fromEntries(
      Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)]),
    );
    reply.hijack();
    writer = new SseWriter(reply.raw, base);
    writer.open(answer.headers);
    return writer;
  };
  try {
    await answer.run(start);
  } finally {
    writer?.end();
  }
}

/** Aborted when the agent's connection closes before the answer is complete. */
function goneSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) {
      gone.abort();
    }
  });
  return gone.signal;
}

/** Only an agent calls a model through an LLM gateway (D20, D32). */
function callerOf(request: AgentRequest): LlmCaller {
  const principal = request.principal;
  if (!principal || principal.kind !== 'AGENT') {
    throw new LlmPathException(
      LlmPathErrorCode.NotSubscribed,
      'only an agent token may call an LLM gateway',
    );
  }
  return {
    tenantId: principal.tenantId,
    agentId: principal.subject,
    correlationId: correlationIdOf(request.raw),
    headers: request.headers,
  };
}

import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { uuidParam } from '@agp/http';
import { FastifyReply } from 'fastify';

import { SseWriter } from '../pipeline/sse-writer';
import {
  TrafficRequest,
  agentCallerOf,
  goneSignal,
  hijackForEvents,
} from '../pipeline/traffic-intake';
import { LlmAnswer } from './llm-completions';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';
import { LlmCaller, LlmRelayService } from './llm-relay.service';

/** D20, D39, D8, T16: OpenAI-compatible; handlers only translate HTTP. */
@Controller('relay/llm')
export class LlmController {
  constructor(private readonly relay: LlmRelayService) {}

  @Post(':gatewayId/v1/chat/completions')
  async complete(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('gatewayId', uuidParam('gatewayId')) gatewayId: string,
  ): Promise<void> {
    const caller = { ...callerOf(request), signal: goneSignal(reply) };
    await send(reply, await this.relay.complete(caller, gatewayId, request.body));
  }

  @Get(':gatewayId/v1/models')
  async models(
    @Req() request: TrafficRequest,
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
    writer = hijackForEvents(reply);
    writer.open(answer.headers);
    return writer;
  };
  let instead: LlmAnswer | undefined;
  try {
    instead = await answer.run(start);
  } finally {
    writer?.end();
  }
  if (instead) {
    await send(reply, instead);
  }
}

/** Only an agent calls a model through an LLM gateway (D20, D32). */
function callerOf(request: TrafficRequest): LlmCaller {
  return agentCallerOf(
    request,
    () =>
      new LlmPathException(
        LlmPathErrorCode.NotSubscribed,
        'only an agent token may call an LLM gateway',
      ),
  );
}

import { IncomingHttpHeaders } from 'node:http';

import { Logger } from '@nestjs/common';
import { RequestWithPrincipal } from '@agp/auth';
import { HttpProblem, correlationIdOf } from '@agp/http';
import { FastifyReply, FastifyRequest } from 'fastify';

import { SseWriter } from './sse-writer';

export type TrafficRequest = FastifyRequest & RequestWithPrincipal;

/** Who calls a traffic path: a verified agent of a tenant, under the request's correlation id. */
export interface TrafficCaller {
  tenantId: string;
  agentId: string;
  correlationId: string;
  headers: IncomingHttpHeaders;
  signal?: AbortSignal;
  /** G16: a LIVE evaluation run driving the path in this process, never an outside request. */
  evaluation?: EvaluationDrive;
}

/** G16, G19: what a LIVE run changes of a call: no wait for a reviewer, and where it goes. */
export interface EvaluationDrive {
  /** G19: the pack's sandbox double for this target, in place of the target's own upstream. */
  double?: SandboxDouble;
}

/** G19: a URL (reached without the target's credential) or a registered target of the tenant. */
export type SandboxDouble = { url: string } | { targetId: string };

/** A streamed answer of a JSON-RPC path: written through the writer, cancelled when the caller goes. */
export interface StreamAnswer {
  run(writer: SseWriter): Promise<void>;
  cancel(): void;
}

/** D20, D32, T38, D8: the traffic paths carry agents' traffic only. */
export function agentCallerOf(
  request: TrafficRequest,
  refusal: string | (() => Error),
): TrafficCaller {
  const principal = request.principal;
  if (!principal || principal.kind !== 'AGENT') {
    throw typeof refusal === 'string'
      ? new HttpProblem(403, 'forbidden', `only an agent token may call ${refusal}`)
      : refusal();
  }
  return {
    tenantId: principal.tenantId,
    agentId: principal.subject,
    correlationId: correlationIdOf(request.raw),
    headers: request.headers,
  };
}

export function goneSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) {
      gone.abort();
    }
  });
  return gone.signal;
}

/** D13: headers Fastify set (the correlation id) are carried over to the raw response. */
export function hijackForEvents(reply: FastifyReply): SseWriter {
  const base = Object.fromEntries(
    Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)]),
  );
  reply.hijack();
  return new SseWriter(reply.raw, base);
}

/** A streamed answer to its end; the caller going away cancels it, a failure ends the response. */
export async function sendStream(
  reply: FastifyReply,
  answer: StreamAnswer,
  logger: Logger,
): Promise<void> {
  const writer = hijackForEvents(reply);
  reply.raw.on('close', () => answer.cancel());
  try {
    await answer.run(writer);
  } catch (error) {
    logger.error({ err: error }, 'stream failed');
    writer.end();
  }
}

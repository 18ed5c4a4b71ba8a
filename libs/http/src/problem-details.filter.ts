import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';

import { correlationIdOf } from './correlation-id';
import { PROBLEM_CONTENT_TYPE } from './problem-details';
import { toProblem } from './to-problem';

/** Renders a problem and logs it once, with its correlation id (STYLE.md §8). */
export function sendProblem(
  logger: Logger,
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const correlationId = correlationIdOf(request.raw);
  const { body, headers, isFault } = toProblem(error, request.url, correlationId);
  if (isFault) {
    logger.error({ err: error, correlationId, url: request.url }, 'request failed');
  }
  if (reply.sent) {
    return;
  }
  void reply.status(body.status).headers(headers).type(PROBLEM_CONTENT_TYPE).send(body);
}

/** The one filter of every service: every error as problem+json (D12). */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendProblem(
      this.logger,
      error,
      http.getRequest<FastifyRequest>(),
      http.getResponse<FastifyReply>(),
    );
  }
}

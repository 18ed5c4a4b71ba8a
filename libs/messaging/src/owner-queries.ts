import {
  QueryAnswer,
  QueryRequest,
  QueryType,
  queryAnswerClassOf,
  queryOwnerOf,
  queryRequestClassOf,
} from '@agp/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Logger } from 'pino';

import { EventTransport, QueryFailure, QueryFailureReason, StopListening } from './event-transport';

/** How long an asker waits for the owner by default: a request's worth, never a hang. */
export const DEFAULT_QUERY_TIMEOUT_MS = 3_000;

/** What travels back: the answer (null: no such entry in the asked tenant) or why there is none. */
type Reply = { answer: object | null } | { error: string };

/** Callers turn it into a 503 naming the owner; never into "not found". */
export class OwnerUnavailableError extends Error {
  constructor(
    readonly type: QueryType,
    readonly owner: string,
    readonly reason: QueryFailureReason | 'failed' | 'invalid-answer',
    detail: string,
  ) {
    super(`${owner} did not answer ${type}: ${detail}`);
    this.name = 'OwnerUnavailableError';
  }
}

export type QueryHandler<T extends QueryType> = (
  request: QueryRequest<T>,
) => Promise<QueryAnswer<T>>;

/** On NATS one replica of the owner answers (a queue group) (D2, issue 30, D12). */
export class OwnerQueries {
  constructor(
    private readonly transport: EventTransport,
    private readonly logger: Logger,
    private readonly timeoutMs: number = DEFAULT_QUERY_TIMEOUT_MS,
  ) {}

  /** Answers `type` on this replica until stopped (the bus closes it at shutdown). */
  answer<T extends QueryType>(type: T, handler: QueryHandler<T>): Promise<StopListening> {
    return this.transport.answer(type, async (body) => {
      const reply = await this.replyTo(type, body, handler);
      return JSON.stringify(reply);
    });
  }

  async ask<T extends QueryType>(
    type: T,
    request: QueryRequest<T>,
    timeoutMs: number = this.timeoutMs,
  ): Promise<QueryAnswer<T>> {
    const invalid = invalidProperties(queryRequestClassOf(type), request, true);
    if (invalid.length > 0) {
      // The asker validated its input already (D12); this is a caller's bug, not the owner's.
      throw new Error(`invalid ${type} request: ${invalid.join(', ')}`);
    }
    const owner = queryOwnerOf(type);
    let body: string;
    try {
      body = await this.transport.ask(type, JSON.stringify(request), timeoutMs);
    } catch (error) {
      if (error instanceof QueryFailure) {
        throw new OwnerUnavailableError(type, owner, error.reason, error.message);
      }
      throw error;
    }
    const reply = parse(body);
    if (!reply || !('answer' in reply)) {
      const why = typeof reply?.error === 'string' ? reply.error : 'a reply without an answer';
      throw new OwnerUnavailableError(type, owner, 'failed', why);
    }
    if (reply.answer === null) {
      return null;
    }
    const wrong = invalidProperties(queryAnswerClassOf(type), reply.answer, false);
    if (wrong.length > 0) {
      throw new OwnerUnavailableError(type, owner, 'invalid-answer', wrong.join(', '));
    }
    return reply.answer as QueryAnswer<T>;
  }

  private async replyTo<T extends QueryType>(
    type: T,
    body: string,
    handler: QueryHandler<T>,
  ): Promise<Reply> {
    const request = parse(body);
    const invalid = request
      ? invalidProperties(queryRequestClassOf(type), request, true)
      : ['not a JSON object'];
    if (invalid.length > 0) {
      return { error: `invalid request: ${invalid.join(', ')}` };
    }
    try {
      return { answer: await handler(request as QueryRequest<T>) };
    } catch (error) {
      // The asker hears that the owner failed (a 503 there), the owner's log says why.
      this.logger.error({ err: error, type }, 'query handler failed');
      return { error: 'the owner failed to answer' };
    }
  }
}

export const OWNER_QUERIES = Symbol('OWNER_QUERIES');

function parse(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A request's unknown properties are refused (D12, § 5). */
function invalidProperties(
  contract: new () => object,
  value: unknown,
  isRequest: boolean,
): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return ['not an object'];
  }
  return validateSync(plainToInstance(contract, value), {
    forbidUnknownValues: false,
    whitelist: isRequest,
    forbidNonWhitelisted: isRequest,
  }).map((error) => error.property);
}

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

/**
 * The owner could not be asked or did not answer usefully: nobody answers the type (the owner is
 * not running), no answer within the timeout, an answer that is not its contract, or the owner
 * failed. Callers turn it into a 503 naming the owner; never into "not found".
 */
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

/** Answers one query type: the request is validated before, `null` means "no such entry". */
export type QueryHandler<T extends QueryType> = (
  request: QueryRequest<T>,
) => Promise<QueryAnswer<T>>;

/**
 * Request-reply between services (issue 30), typed by the query map of `@agp/contracts`: a service
 * whose projection misses an id asks the id's owner, which answers from its own committed state.
 * On NATS one replica of the owner answers (a queue group); in one process (D2) the owner's
 * handler is called directly. Both ends validate what they receive against the contract classes
 * (D12): a malformed request is refused by the owner, a malformed answer by the asker.
 */
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

  /** The owner's answer, `null` when it has no such entry; rejects with `OwnerUnavailableError`. */
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

/**
 * A request's unknown properties are refused (D12); an answer's are not, so an owner may add a
 * field to its answer (contracts change additively, STYLE § 5) before every asker knows it.
 */
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

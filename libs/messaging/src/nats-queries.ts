import { NatsConnection, RequestError, TimeoutError } from '@nats-io/transport-node';
import { Logger } from 'pino';

import { AnswerQuery, QueryFailure, StopListening } from './event-transport';

/** Replicas of one owner share this queue group. */
const ANSWERERS = 'answerers';

export async function askOverNats(
  nc: NatsConnection,
  subject: string,
  body: string,
  timeoutMs: number,
): Promise<string> {
  try {
    const reply = await nc.request(subject, body, { timeout: timeoutMs });
    return reply.string();
  } catch (error) {
    throw failureOf(error, subject, timeoutMs);
  }
}

export async function answerOverNats(
  nc: NatsConnection,
  subject: string,
  handler: AnswerQuery,
  logger: Logger,
): Promise<StopListening> {
  const subscription = nc.subscribe(subject, {
    queue: ANSWERERS,
    callback: (error, message) => {
      if (error) {
        logger.warn({ err: error, subject }, 'query subscription failed');
        return;
      }
      void handler(message.string()).then(
        (reply) => message.respond(reply),
        // A bug (failures are replies, OwnerQueries): the asker's timeout reports it.
        (failure: unknown) => logger.error({ err: failure, subject }, 'query answerer threw'),
      );
    },
  });
  await nc.flush();
  return () => subscription.unsubscribe();
}

function failureOf(error: unknown, subject: string, timeoutMs: number): QueryFailure {
  if (error instanceof RequestError && error.isNoResponders()) {
    return new QueryFailure('no-answerer', `no answerer on ${subject}`);
  }
  if (error instanceof TimeoutError || (error as Error)?.cause instanceof TimeoutError) {
    return new QueryFailure('timeout', `no answer on ${subject} within ${timeoutMs} ms`);
  }
  return new QueryFailure('unreachable', `${subject}: ${(error as Error)?.message ?? error}`);
}

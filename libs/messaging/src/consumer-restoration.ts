import { ConsumerMessages } from '@nats-io/jetstream';
import { Logger } from 'pino';

const MISSING = new Set(['consumer_not_found', 'consumer_deleted', 'stream_not_found']);

/**
 * A durable consumer, or its stream, can vanish under a running `consume()`: deleted by an
 * operator, or lost with a NATS server's storage. The client then only waits for it to come back,
 * and events would stop flowing without a word (D5); this puts it back, and the client resumes.
 * A consumer made again delivers the stream from its start: consumers are idempotent (D5).
 */
export async function restoreWhenMissing(
  messages: ConsumerMessages,
  restore: () => Promise<void>,
  logger: Logger,
  consumer: string,
): Promise<void> {
  for await (const status of messages.status()) {
    if (MISSING.has(status.type)) {
      logger.warn({ consumer, status: status.type }, 'consumer missing: creating it again');
      await restore().catch((error: unknown) => {
        logger.warn(
          { err: error, consumer },
          'creating the consumer again failed; next notice retries',
        );
      });
    }
  }
}

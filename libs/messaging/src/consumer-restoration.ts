import { ConsumerMessages } from '@nats-io/jetstream';
import { Logger } from 'pino';

const MISSING = new Set(['consumer_not_found', 'consumer_deleted', 'stream_not_found']);

/** A durable consumer, or its stream, can vanish under a running `consume()` (D5). */
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

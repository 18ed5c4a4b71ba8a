import { JetStreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';

import { deadLetterStreamName, eventsStreamName } from './subjects';

export const DAY_MS = 86_400_000;
/** How long the events stream keeps a message: no delivery can repeat an older one (F18). */
export const EVENTS_MAX_AGE_MS = 7 * DAY_MS;
const DEAD_LETTER_MAX_AGE_MS = 30 * DAY_MS;
const DEFAULT_DUPLICATE_WINDOW_MS = 10 * 60_000;

export interface StreamDefinition {
  name: string;
  subject: string;
  maxAgeMs: number;
  duplicateWindowMs: number;
}

/** The stream every event travels on (D5), deduplicated on `Nats-Msg-Id` within the window. */
export function eventsStream(
  prefix: string,
  duplicateWindowMs = DEFAULT_DUPLICATE_WINDOW_MS,
): StreamDefinition {
  return {
    name: eventsStreamName(prefix),
    subject: `${prefix}.events.>`,
    maxAgeMs: EVENTS_MAX_AGE_MS,
    duplicateWindowMs,
  };
}

export function deadLetterStream(
  prefix: string,
  duplicateWindowMs = DEFAULT_DUPLICATE_WINDOW_MS,
): StreamDefinition {
  return {
    name: deadLetterStreamName(prefix),
    subject: `${prefix}.dlq.>`,
    maxAgeMs: DEAD_LETTER_MAX_AGE_MS,
    duplicateWindowMs,
  };
}

/** Replicas may race to create it: one wins, the others find it there. */
export async function ensureStream(
  jsm: JetStreamManager,
  stream: StreamDefinition,
  options: { update: boolean },
): Promise<void> {
  const config = {
    name: stream.name,
    subjects: [stream.subject],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    max_age: nanos(stream.maxAgeMs),
    duplicate_window: nanos(stream.duplicateWindowMs),
  };
  try {
    await jsm.streams.info(stream.name);
    if (options.update) {
      await jsm.streams.update(stream.name, config);
    }
  } catch {
    await jsm.streams.add(config).catch(async (error: unknown) => {
      await jsm.streams.info(stream.name).catch(() => {
        throw error;
      });
    });
  }
}

import { JetStreamManager } from '@nats-io/jetstream';

import { ParkedMessage } from './event-transport';
import { deadLetterStreamName } from './subjects';

export async function countDeadLetters(jsm: JetStreamManager, prefix: string): Promise<number> {
  const info = await jsm.streams.info(deadLetterStreamName(prefix));
  return info.state.messages;
}

/** For operators and tests: the parked messages with why (oldest first, at most `limit`). */
export async function readDeadLetters(
  jsm: JetStreamManager,
  prefix: string,
  limit: number,
): Promise<ParkedMessage[]> {
  const stream = deadLetterStreamName(prefix);
  const { state } = await jsm.streams.info(stream);
  const parked: ParkedMessage[] = [];
  for (let seq = state.first_seq; seq <= state.last_seq && parked.length < limit; seq += 1) {
    const message = await jsm.streams.getMessage(stream, { seq });
    if (message) {
      parked.push({
        consumer: message.header.get('Agp-Consumer'),
        subject: message.header.get('Agp-Original-Subject'),
        reason: message.header.get('Agp-Reason'),
        deliveries: Number(message.header.get('Agp-Deliveries')),
        body: message.string(),
      });
    }
  }
  return parked;
}

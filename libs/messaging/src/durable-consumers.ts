import {
  ConsumeOptions,
  ConsumerConfig,
  ConsumerMessages,
  JetStreamClient,
  JetStreamManager,
  JsMsg,
} from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/transport-node';
import { Logger } from 'pino';

import { restoreWhenMissing } from './consumer-restoration';
import { MessageDisposition } from './message-disposition';
import { eventsStreamName } from './subjects';

export interface DurableConsumerSetup {
  jsm: JetStreamManager;
  js: JetStreamClient;
  prefix: string;
  config: Partial<ConsumerConfig> & { durable_name: string };
  consume: ConsumeOptions;
  /** Makes the stream exist again, before the consumer is made again (F19). */
  ensureStream: () => Promise<void>;
  logger: Logger;
}

/** Creates or updates the consumer and reads it, remade when deleted under a running read (F19). */
export async function openDurableConsumer(setup: DurableConsumerSetup): Promise<ConsumerMessages> {
  const { jsm, js, config } = setup;
  const stream = eventsStreamName(setup.prefix);
  try {
    await jsm.consumers.add(stream, config);
  } catch {
    await jsm.consumers.update(stream, config.durable_name, config);
  }
  const consumer = await js.consumers.get(stream, config.durable_name);
  const messages = await consumer.consume(setup.consume);
  void restoreWhenMissing(
    messages,
    async () => {
      await setup.ensureStream();
      await jsm.consumers.add(stream, config);
    },
    setup.logger,
    config.durable_name,
  );
  return messages;
}

export class RunningConsumers {
  private readonly running: Array<{ messages: ConsumerMessages; loop: Promise<void> }> = [];
  private readonly handedBack: JsMsg[] = [];
  private stopping = false;

  get isStopping(): boolean {
    return this.stopping;
  }

  add(messages: ConsumerMessages, loop: Promise<void>): void {
    this.running.push({ messages, loop });
  }

  /** A message that arrived after stopping began: it goes back once pulling has stopped. */
  handBack(...messages: JsMsg[]): void {
    this.handedBack.push(...messages);
  }

  async stop(nc: NatsConnection, disposition: MessageDisposition): Promise<void> {
    this.stopping = true;
    await Promise.all(this.running.map(({ messages }) => messages.close()));
    await Promise.all(this.running.map(({ loop }) => loop));
    this.running.length = 0;
    await disposition.handBack(nc, this.handedBack.splice(0));
  }
}

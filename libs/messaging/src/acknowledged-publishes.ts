import { Msg, NatsConnection, createInbox, headers } from '@nats-io/transport-node';

/** What JetStream answers a publish: the stream and sequence, or why it was not stored. */
interface PubAck {
  stream?: string;
  error?: { code?: number; description?: string };
}

interface Awaited {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * R42: JetStream publishes whose acknowledgements come back on one inbox subscription of the
 * connection. `JetStreamClient.publish` goes through `nc.request`, whose request object builds a
 * `RequestError("cancelled")` with its stack when it is cleaned up after every answered request
 * (`@nats-io/nats-core` `RequestOne.cancel`); here a publish is a map entry, and a batch shares one
 * timer. The message id is the `Nats-Msg-Id` header, as `js.publish`'s `msgID` sets it (D5).
 */
export class AcknowledgedPublishes {
  private readonly inbox = createInbox();
  private readonly awaited = new Map<string, Awaited>();
  private sequence = 0;
  /** Why the inbox closed (a permissions error, say): every publish then fails at once. */
  private closedBy: Error | undefined;

  constructor(private readonly nc: NatsConnection) {
    nc.subscribe(`${this.inbox}.*`, {
      callback: (error, message) => (error ? this.close(error) : this.answered(message)),
    });
  }

  /** Resolves once the stream stored (or deduplicated) every one; rejects on the first failure. */
  async publish(
    messages: ReadonlyArray<{ subject: string; payload: string; id: string }>,
    timeoutMs: number,
  ): Promise<void> {
    if (this.closedBy) {
      throw this.closedBy; // EventOutbox.addDurable falls back to the outbox
    }
    const tokens: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.all(
          messages.map(({ subject, payload, id }) => {
            const token = String((this.sequence += 1));
            tokens.push(token);
            const acknowledged = new Promise<void>((resolve, reject) =>
              this.awaited.set(token, { resolve, reject }),
            );
            const header = headers();
            header.set('Nats-Msg-Id', id);
            this.nc.publish(subject, payload, { reply: `${this.inbox}.${token}`, headers: header });
            return acknowledged;
          }),
        ),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no JetStream acknowledgement within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
      tokens.forEach((token) => this.awaited.delete(token));
    }
  }

  private close(error: Error): void {
    this.closedBy = new Error(`the acknowledgements' inbox closed: ${error.message}`);
    for (const waiting of this.awaited.values()) {
      waiting.reject(this.closedBy);
    }
    this.awaited.clear();
  }

  private answered(message: Msg): void {
    const token = message.subject.slice(this.inbox.length + 1);
    const waiting = this.awaited.get(token);
    if (!waiting) {
      return; // answered after its batch gave up
    }
    this.awaited.delete(token);
    if (message.headers?.hasError) {
      // 503: no stream listens on the subject (JetStream down or the stream gone).
      waiting.reject(new Error(`JetStream did not store the event: ${message.headers.code}`));
      return;
    }
    try {
      const ack = message.json<PubAck>();
      if (ack.error || !ack.stream) {
        throw new Error(ack.error?.description ?? 'invalid acknowledgement');
      }
      waiting.resolve();
    } catch (error) {
      waiting.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** What a 2026-07-28 server's `subscriptions/listen` answers: its messages, as they come. */
export type ListenBody = AsyncIterable<Buffer | string>;

export interface UpstreamListenSteps {
  /** Opens a listen for these URIs, ended by `signal`; undefined when the server refused it. */
  open(uris: string[], signal: AbortSignal): Promise<ListenBody | undefined>;
  /** The session's URIs once they differ from `uris`; undefined once `signal` ends the wait. */
  changed(uris: string[], signal: AbortSignal): Promise<string[] | undefined>;
}

/**
 * T104: the upstream listens behind a 2025 client's GET stream, one at a time, opened again with
 * the session's URIs whenever they change. T114: one abort listener on the stream serves every
 * listen it opens (the stream may outlive thousands of them).
 */
export class UpstreamListens {
  private current = new AbortController();
  private uris: string[] = [];
  private body?: ListenBody;

  constructor(
    private readonly stream: AbortSignal,
    private readonly steps: UpstreamListenSteps,
  ) {
    stream.addEventListener('abort', () => this.current.abort(), { once: true });
  }

  /** The first listen; false when the server refused it. */
  async open(uris: string[]): Promise<boolean> {
    this.uris = uris;
    this.body = await this.steps.open(uris, this.current.signal);
    return this.body !== undefined;
  }

  /**
   * Each listen's messages through `relayOne` until the stream ends, or a listen ends or is
   * refused on the server's side.
   */
  async relay(relayOne: (body: ListenBody) => Promise<void>): Promise<void> {
    while (this.body) {
      const listen = this.current;
      const changed = this.steps.changed(this.uris, listen.signal);
      const ended = relayOne(this.body);
      const next = await Promise.race([ended.then(() => undefined), changed]);
      listen.abort();
      ended.catch(() => undefined);
      if (next === undefined || this.stream.aborted) {
        return;
      }
      this.current = new AbortController();
      await this.open(next);
    }
  }
}

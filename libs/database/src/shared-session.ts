import type { PGlite } from '@electric-sql/pglite';

import { endsWithReadyForQuery, frontOf } from './wire-frames';

/** One connection to the shared session: a socket of another process or an in-process stream. */
export interface SessionClient {
  reply(bytes: Buffer): void;
  close(): void;
}

interface ClientState {
  inbox: Buffer;
  started: boolean;
  closed: boolean;
}

const EMPTY = Buffer.alloc(0);
const ENCRYPTION_REFUSED = Buffer.from('N');
// CopyFail ends a COPY FROM STDIN the client left open (ignored outside one), Sync an
// extended-protocol cycle; the ROLLBACK ends its transaction.
const COPY_FAIL_REASON = 'client gone\0';
const RESET = Buffer.concat([
  Buffer.from([0x66, 0, 0, 0, 4 + COPY_FAIL_REASON.length]),
  Buffer.from(COPY_FAIL_REASON),
  Buffer.from([0x53, 0, 0, 0, 4]),
  Buffer.from([0x51, 0, 0, 0, 4 + 'ROLLBACK'.length + 1]),
  Buffer.from('ROLLBACK\0'),
]);
// Long enough to run many short statements, short enough that HTTP and timers still get their turn.
const SLICE_MS = 4;

/**
 * F63: PGlite is one PostgreSQL session (D2); every connection of the process shares it. A client
 * keeps the session from its first message to the end of its cycle (ReadyForQuery) and, while that
 * leaves a transaction open, until the transaction ends; the others' messages wait. Each turn hands
 * PGlite every whole message the client sent (a statement's Parse … Sync in one call, not five).
 */
export class SharedSession {
  private readonly states = new Map<SessionClient, ClientState>();
  private readonly waiting: SessionClient[] = [];
  private owner: SessionClient | undefined;
  private resetDue = false;
  private draining = false;

  constructor(private readonly db: Pick<PGlite, 'execProtocolRawStream' | 'isInTransaction'>) {}

  attach(client: SessionClient): void {
    this.states.set(client, { inbox: EMPTY, started: false, closed: false });
  }

  receive(client: SessionClient, chunk: Buffer): void {
    const state = this.states.get(client);
    if (!state) {
      return;
    }
    state.inbox = state.inbox.length === 0 ? chunk : Buffer.concat([state.inbox, chunk]);
    if (!this.waiting.includes(client)) {
      this.waiting.push(client);
    }
    this.schedule();
  }

  /** The client is gone: its turn, if it held one, ends with its cycle and transaction undone. */
  detach(client: SessionClient): void {
    const state = this.states.get(client);
    if (state) {
      state.closed = true;
      this.states.delete(client);
    }
    this.forget(client);
    if (this.owner === client) {
      this.owner = undefined;
      this.resetDue = true;
      this.schedule();
    }
  }

  private forget(client: SessionClient): void {
    const index = this.waiting.indexOf(client);
    if (index >= 0) {
      this.waiting.splice(index, 1);
    }
  }

  private schedule(): void {
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    const until = performance.now() + SLICE_MS;
    for (;;) {
      if (this.resetDue) {
        this.resetDue = false;
        await this.reset();
      }
      const client = this.owner ?? this.waiting.shift();
      if (!client || (this.owner && !this.waiting.includes(client))) {
        break;
      }
      this.forget(client);
      await this.serve(client);
      if (performance.now() > until) {
        break;
      }
    }
    this.draining = false;
    if (this.resetDue || (this.owner ? this.waiting.includes(this.owner) : this.waiting.length)) {
      this.schedule();
    }
  }

  private async reset(): Promise<void> {
    try {
      await this.db.execProtocolRawStream(RESET, { syncToFs: false, onRawData: () => undefined });
      if (this.db.isInTransaction()) {
        // The session must not stay in another client's transaction: one more try, then say so.
        await this.db.execProtocolRawStream(RESET, { syncToFs: false, onRawData: () => undefined });
      }
      if (this.db.isInTransaction()) {
        process.emitWarning(
          'the embedded PostgreSQL session is still in a transaction after a reset',
        );
      }
    } catch {
      // Closed meanwhile (stop): nothing left to undo.
    }
  }

  private async serve(client: SessionClient): Promise<void> {
    const state = this.states.get(client);
    if (!state) {
      return;
    }
    const front = frontOf(state.inbox, state.started);
    switch (front.kind) {
      case 'none':
        return;
      case 'close':
        client.close();
        return;
      case 'encryption-request':
        state.inbox = state.inbox.subarray(front.length);
        client.reply(ENCRYPTION_REFUSED);
        break;
      case 'startup':
        state.started = true;
        await this.run(client, state, state.inbox.subarray(0, front.length));
        state.inbox = state.inbox.subarray(front.length);
        break;
      case 'messages':
        if (front.length > 0) {
          await this.run(client, state, state.inbox.subarray(0, front.length));
        }
        state.inbox = state.inbox.subarray(front.length);
        if (front.terminate) {
          client.close();
          return;
        }
        break;
    }
    const more = frontOf(state.inbox, state.started).kind !== 'none';
    if (more && !state.closed && !this.waiting.includes(client)) {
      this.waiting.push(client);
    }
  }

  private async run(client: SessionClient, state: ClientState, messages: Buffer): Promise<void> {
    const output: Buffer[] = [];
    try {
      await this.db.execProtocolRawStream(messages, {
        syncToFs: false, // no-op for a data directory on disk (NodeFS); kept off the hot path
        onRawData: (bytes) => output.push(Buffer.from(bytes)),
      });
    } catch {
      this.owner = undefined;
      this.resetDue = true;
      client.close();
      return;
    }
    const reply = output.length === 1 ? output[0] : Buffer.concat(output);
    const holds = !endsWithReadyForQuery(reply) || this.db.isInTransaction();
    if (state.closed) {
      // Gone while its messages ran: what they left open is undone now.
      this.owner = undefined;
      this.resetDue ||= holds;
      return;
    }
    this.owner = holds ? client : undefined;
    if (reply.length > 0) {
      client.reply(reply);
    }
  }
}

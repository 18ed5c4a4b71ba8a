import { Duplex } from 'node:stream';

import type { SessionClient, SharedSession } from './shared-session';

/**
 * F63: what `pg` reads and writes in place of a socket when PGlite runs in its own process: the
 * wire bytes go to the shared session in memory, with no TCP round trip per statement. `pg` calls
 * the socket methods below; the stream has nothing to set for them.
 */
export class InProcessStream extends Duplex implements SessionClient {
  constructor(private readonly session: SharedSession) {
    super();
    session.attach(this);
  }

  connect(): this {
    process.nextTick(() => this.emit('connect'));
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  reply(bytes: Buffer): void {
    this.push(bytes);
  }

  close(): void {
    this.destroy();
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.session.receive(this, chunk);
    done();
  }

  // `pg` corks the stream around a statement's Parse … Sync: they arrive here as one chunk.
  override _writev(chunks: Array<{ chunk: Buffer }>, done: () => void): void {
    this.session.receive(this, Buffer.concat(chunks.map(({ chunk }) => chunk)));
    done();
  }

  override _final(done: () => void): void {
    this.session.detach(this);
    this.push(null);
    done();
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.session.detach(this);
    done(error);
  }
}

import { mkdirSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';

import { InProcessStream } from './in-process-stream';
import { SharedSession } from './shared-session';

export interface EmbeddedPostgres {
  /** A postgres:// URL that the ordinary `pg` driver (and so TypeORM) connects to. */
  url: string;
  stop(): Promise<void>;
}

/** F63: the embedded URLs this process serves, each with the stream that reaches it in memory. */
const inProcess = new Map<string, () => Duplex>();

/** The `pg` stream option for `url` when this process embeds it, so no TCP socket carries it. */
export function inProcessStreamFor(url: string): { stream: () => Duplex } | Record<string, never> {
  const stream = inProcess.get(url);
  return stream ? { stream } : {};
}

/**
 * PGlite is one session (D2), shared by every connection as `SharedSession` schedules it. This
 * process's data sources reach it in memory (F63); other processes (a test's, `psql`) through a
 * loopback socket.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const directory = join(dataDir, 'pgdata');
  mkdirSync(directory, { recursive: true });
  // Loaded here, not at the top: every service imports this library, only the one-process runner
  // embeds PostgreSQL, and PGlite costs a process ~4 MiB it would otherwise keep for nothing.
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(directory);
  const session = new SharedSession(db);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    serveSocket(session, socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
  inProcess.set(url, () => new InProcessStream(session));
  return {
    url,
    stop: async () => {
      inProcess.delete(url);
      const closed = new Promise((resolve) => server.close(resolve));
      sockets.forEach((socket) => socket.destroy());
      await closed;
      await db.close();
    },
  };
}

function serveSocket(session: SharedSession, socket: Socket): void {
  const client = { reply: (bytes: Buffer) => socket.write(bytes), close: () => socket.destroy() };
  session.attach(client);
  socket.setNoDelay(true);
  socket.on('data', (chunk: Buffer) => session.receive(client, chunk));
  socket.on('error', () => socket.destroy());
  socket.once('close', () => session.detach(client));
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

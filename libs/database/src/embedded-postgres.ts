import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface EmbeddedPostgres {
  /** A postgres:// URL that the ordinary `pg` driver (and so TypeORM) connects to. */
  url: string;
  stop(): Promise<void>;
}

/** PGlite is one session: the socket server keeps an open transaction to its connection (D2). */
export async function startEmbeddedPostgres(
  dataDir: string,
  maxConnections = 32,
): Promise<EmbeddedPostgres> {
  const directory = join(dataDir, 'pgdata');
  mkdirSync(directory, { recursive: true });
  // Loaded here, not at the top: every service imports this library, only the one-process runner
  // embeds PostgreSQL, and PGlite costs a process ~4 MiB it would otherwise keep for nothing.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create(directory);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
  await server.start();
  const address = server.getServerConn();
  return {
    url: `postgresql://postgres:postgres@${address}/postgres?sslmode=disable`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

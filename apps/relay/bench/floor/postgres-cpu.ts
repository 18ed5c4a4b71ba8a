import { readFileSync } from 'node:fs';

import { Client } from 'pg';

/**
 * PostgreSQL's own CPU for one database (issue 31): the backends connected to it, read from
 * /proc (server on this machine). A backend that ends between two readings loses its share, and
 * the server's shared work (WAL writer, checkpoints) is not counted: a lower bound.
 */
export class PostgresCpu {
  private constructor(private readonly client: Client) {}

  static async connect(databaseUrl: string): Promise<PostgresCpu> {
    const client = new Client({ connectionString: databaseUrl });
    // Dropping the bench database at the end ends this connection: not a failure of the bench.
    client.on('error', () => undefined);
    await client.connect();
    return new PostgresCpu(client);
  }

  /** CPU seconds of each backend of the database but this reader's own. */
  async read(): Promise<Map<number, number>> {
    const backends = await this.client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    const seconds = new Map<number, number>();
    for (const { pid } of backends.rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
      } catch {
        // Gone between the query and the read.
      }
    }
    return seconds;
  }

  /** CPU seconds the backends used between two readings (a new backend counts from zero). */
  static between(before: Map<number, number>, after: Map<number, number>): number {
    let total = 0;
    for (const [pid, value] of after) {
      total += value - (before.get(pid) ?? 0);
    }
    return total;
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

import type { Connection, PoolClient } from 'pg';

// The COPY sub-protocol's frontend messages (https://www.postgresql.org/docs/current/protocol-message-formats.html).
const COPY_DATA = 0x64;
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);

interface Sent {
  stream: { cork(): void; uncork(): void; write(chunk: Buffer): boolean };
  query(text: string): void;
}

/**
 * One simple query whose statements include one `COPY … FROM STDIN`, sent to `pg` as a custom
 * query (as `pg-copy-streams` is): the statements before the COPY, its rows and the statements
 * after it take two round trips, where one query each took one or two (A49). Resolves with the
 * first column of the rows the statements return, as text; rejects on the first error, after which
 * PostgreSQL skips the rest of the query (the transaction is then aborted, for the caller to roll
 * back).
 */
class CopyQuery {
  private readonly rows: Array<string | null> = [];
  private settled = false;

  constructor(
    private readonly text: string,
    private readonly data: Buffer,
    private readonly resolve: (rows: Array<string | null>) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  submit(connection: Connection): void {
    (connection as unknown as Sent).query(this.text);
  }

  handleCopyInResponse(connection: Connection): void {
    const header = Buffer.allocUnsafe(5);
    header[0] = COPY_DATA;
    header.writeUInt32BE(this.data.length + 4, 1);
    // One write of the three: the socket is corked so they leave in one `writev`.
    const { stream } = connection as unknown as Sent;
    stream.cork();
    stream.write(header);
    stream.write(this.data);
    stream.write(COPY_DONE);
    stream.uncork();
  }

  handleRowDescription(): void {}

  handleDataRow(message: { fields: Array<string | null> }): void {
    this.rows.push(message.fields[0] ?? null);
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handleError(error: Error): void {
    if (!this.settled) {
      this.settled = true;
      this.reject(error);
    }
  }

  handleReadyForQuery(): void {
    if (!this.settled) {
      this.settled = true;
      this.resolve(this.rows);
    }
  }

  // `pg` replaces it when a query timeout is set; nothing is reported through it.
  callback(): void {}
}

/** Sends `text` (whose one COPY reads `data`, COPY's text format) on `client`; see `CopyQuery`. */
export function copyQuery(
  client: PoolClient,
  text: string,
  data: Buffer,
): Promise<Array<string | null>> {
  return new Promise((resolve, reject) => {
    client.query(new CopyQuery(text, data, resolve, reject) as never);
  });
}

import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

const TABLE = 'tenant_auth.token_rate_windows';

/** The fixed windows of token requests (identity.md I6), one row per key and window. */
@Injectable()
export class TokenRateWindowsRepository {
  /** Counts one request against each key in the window; each key's count so far. */
  async increment(
    tx: Tx,
    keys: string[],
    windowStart: Date,
  ): Promise<Array<{ key: string; count: number }>> {
    return tx.query(
      `INSERT INTO ${TABLE} (key, window_start, count)
       SELECT key, $2, 1 FROM unnest($1::text[]) AS key
       ON CONFLICT (key, window_start) DO UPDATE SET count = token_rate_windows.count + 1
       RETURNING key, count`,
      [keys, windowStart],
    );
  }

  async pruneBefore(tx: Tx, before: Date): Promise<void> {
    await tx.query(`DELETE FROM ${TABLE} WHERE window_start < $1`, [before]);
  }
}

import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { TENANT_AUTH_SCHEMA } from '../database/tokens';

const TABLE = `${TENANT_AUTH_SCHEMA}.revocations`;

@Injectable()
export class RevocationsRepository {
  async put(tx: Tx, key: string, reason: string, expiresAt: Date | null): Promise<void> {
    await tx.query(
      `INSERT INTO ${TABLE} (key, reason, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET reason = EXCLUDED.reason, expires_at = EXCLUDED.expires_at`,
      [key, reason, expiresAt],
    );
  }

  async remove(tx: Tx, key: string): Promise<void> {
    await tx.query(`DELETE FROM ${TABLE} WHERE key = $1`, [key]);
  }

  /** Every revocation still in force; expired ones (deleted callers whose tokens have all expired) are dropped. */
  async current(tx: Tx): Promise<Map<string, string>> {
    await tx.query(`DELETE FROM ${TABLE} WHERE expires_at IS NOT NULL AND expires_at < now()`);
    const rows: Array<{ key: string; reason: string }> = await tx.query(
      `SELECT key, reason FROM ${TABLE}`,
    );
    return new Map(rows.map((row) => [row.key, row.reason]));
  }
}

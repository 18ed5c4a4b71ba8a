import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';

const T = `${AUDIT_SCHEMA}.monitor_ticks`;

/** One row per evaluated minute: the replica that inserts it runs that tick, the others skip it. */
@Injectable()
export class TickLeasesRepository {
  async claim(tx: Tx, minute: Date, replica: string): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `INSERT INTO ${T} (minute, replica) VALUES ($1, $2) ON CONFLICT (minute) DO NOTHING RETURNING minute`,
      [minute, replica],
    );
    return rows.length > 0;
  }

  async finish(tx: Tx, minute: Date, findings: number): Promise<void> {
    await tx.query(`UPDATE ${T} SET finished_at = now(), findings = $2 WHERE minute = $1`, [
      minute,
      findings,
    ]);
  }

  async prune(tx: Tx, before: Date): Promise<void> {
    await tx.query(`DELETE FROM ${T} WHERE minute < $1`, [before]);
  }
}

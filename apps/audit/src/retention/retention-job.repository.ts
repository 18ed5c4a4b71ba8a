import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { EventFamily } from '../events/event-families';

@Injectable()
export class RetentionJobRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {
    this.schema = database.schema;
  }

  async anchorSeq(tx: Tx, tenantId: string, family: EventFamily): Promise<number> {
    const rows: Array<{ seq: string }> = await tx.query(
      `SELECT seq FROM ${this.schema}.chain_anchors WHERE tenant_id = $1 AND family = $2`,
      [tenantId, family],
    );
    return rows[0] ? Number(rows[0].seq) : 0;
  }

  /** Removes a chain's prefix up to `seq` and anchors what remains at the checkpoint (A9). */
  async removeThrough(
    tx: Tx,
    tenantId: string,
    family: EventFamily,
    anchor: { seq: number; hash: string; checkpointId: string },
  ): Promise<number> {
    const deleted: [unknown[], number] = await tx.query(
      `DELETE FROM ${this.schema}.events WHERE tenant_id = $1 AND family = $2 AND seq <= $3`,
      [tenantId, family, anchor.seq],
    );
    await tx.query(
      `INSERT INTO ${this.schema}.chain_anchors (tenant_id, family, seq, hash, checkpoint_id) VALUES ($1, $2, $3, decode($4, 'hex'), $5)
       ON CONFLICT (tenant_id, family) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash,
         checkpoint_id = EXCLUDED.checkpoint_id, anchored_at = now()`,
      [tenantId, family, anchor.seq, anchor.hash, anchor.checkpointId],
    );
    return deleted[1];
  }
}

import { Injectable } from '@nestjs/common';
import { Row, Tx } from '@agp/database';

const S = 'relay';

/** Every query of GR38's relist claims; each method takes the tenant id. */
@Injectable()
export class ToolRelistsRepository {
  /**
   * The server's tools changed now; true when this caller holds the claim to list them again
   * (none was held, or the last one expired: a replica that died while listing).
   */
  async changed(tx: Tx, tenantId: string, serverId: string, claimMs: number): Promise<boolean> {
    const rows: Row[] = await tx.query(
      `INSERT INTO ${S}.mcp_tool_relists AS r (tenant_id, server_id, changed_at, claimed_until)
       VALUES ($1, $2, now(), now() + $3 * interval '1 millisecond')
       ON CONFLICT (tenant_id, server_id) DO UPDATE
          SET changed_at = now(),
              claimed_until = CASE
                WHEN r.claimed_until IS NULL OR r.claimed_until < now() THEN excluded.claimed_until
                ELSE r.claimed_until END
       RETURNING claimed_until = now() + $3 * interval '1 millisecond' AS claimed`,
      [tenantId, serverId, claimMs],
    );
    return rows[0]?.claimed === true;
  }

  /** The database's clock: a listing's start, compared with `changed_at` (same clock). */
  async now(tx: Tx): Promise<Date> {
    const rows: Row[] = await tx.query(`SELECT now() AS now`);
    return rows[0].now as Date;
  }

  /**
   * Ends the claim when nothing changed since `startedAt` (or `force`); false when a change came
   * while listing, and the claim is kept for another listing.
   */
  async release(
    tx: Tx,
    tenantId: string,
    serverId: string,
    startedAt: Date,
    force: boolean,
  ): Promise<boolean> {
    const rows: Row[] = await tx.query(
      `UPDATE ${S}.mcp_tool_relists
          SET claimed_until = NULL, listed_at = $3
        WHERE tenant_id = $1 AND server_id = $2 AND (changed_at <= $3 OR $4)
        RETURNING 1`,
      [tenantId, serverId, startedAt, force],
    );
    return rows.length > 0;
  }
}

import { Injectable } from '@nestjs/common';
import { returning, Row, str, Tx } from '@agp/database';

const T = 'relay.a2a_held_pushes';

/** A push held for human review: where it goes once approved, and what carried it. */
export interface HeldPush {
  hitlRequestId: string;
  tenantId: string;
  pushConfigId: string;
  contentType: string;
  deliveryId?: string;
}

/** Held pushes (traffic.md "A held push is delivered when approved"); every method takes the tenant. */
@Injectable()
export class HeldPushesRepository {
  async insert(tx: Tx, held: HeldPush): Promise<void> {
    await tx.query(
      `INSERT INTO ${T} (hitl_request_id, tenant_id, push_config_id, content_type)
       VALUES ($1, $2, $3, $4)`,
      [held.hitlRequestId, held.tenantId, held.pushConfigId, held.contentType],
    );
  }

  async find(tx: Tx, tenantId: string, hitlRequestId: string): Promise<HeldPush | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 AND hitl_request_id = $2`,
      [tenantId, hitlRequestId],
    );
    return rows[0] ? toHeldPush(rows[0]) : undefined;
  }

  /** Records the delivery that carries the approved push; only once. */
  async delivered(
    tx: Tx,
    tenantId: string,
    hitlRequestId: string,
    deliveryId: string,
  ): Promise<boolean> {
    const rows = await returning(
      tx,
      `UPDATE ${T} SET delivery_id = $3
        WHERE tenant_id = $1 AND hitl_request_id = $2 AND delivery_id IS NULL
        RETURNING hitl_request_id`,
      [tenantId, hitlRequestId, deliveryId],
    );
    return rows.length === 1;
  }
}

function toHeldPush(row: Row): HeldPush {
  return {
    hitlRequestId: String(row.hitl_request_id),
    tenantId: String(row.tenant_id),
    pushConfigId: String(row.push_config_id),
    contentType: String(row.content_type),
    deliveryId: str(row.delivery_id),
  };
}

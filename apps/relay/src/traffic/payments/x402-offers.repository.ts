import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { Row, Tx } from '@agp/database';

import { Offer } from './x402-messages';

const T = 'relay.x402_offers';

/** How many recent 402s of one payee to one payer a retry is matched against. */
const RECENT_OFFERS = 20;

/** A 402 the relay saw: what a payee asked one payer for (payments.md PY9). */
export interface StoredOffers {
  x402Version: 1 | 2;
  accepts: Offer[];
}

export interface OfferKey {
  tenantId: string;
  payerId: string;
  sinkType: string;
  sinkId: string;
}

/** PY16: the offers of any of several payees (an LLM gateway's providers), each with its payee. */
export interface OffersOfAny {
  tenantId: string;
  payerId: string;
  sinkType: string;
  sinkIds: string[];
}

export interface StoredOffersOf extends StoredOffers {
  sinkId: string;
}

/** PY9: the requirements payees answered payers with, until they expire. */
@Injectable()
export class X402OffersRepository {
  /** Keeps `offers` until `expiresAt`; the tenant's expired ones go in the same statement. */
  async keep(tx: Tx, key: OfferKey, offers: StoredOffers, expiresAt: Date): Promise<void> {
    await tx.query(
      `WITH gone AS (DELETE FROM ${T} WHERE tenant_id = $2 AND expires_at < now())
       INSERT INTO ${T} (id, tenant_id, payer_id, sink_type, sink_id, x402_version, accepts,
         expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        randomUUID(),
        key.tenantId,
        key.payerId,
        key.sinkType,
        key.sinkId,
        offers.x402Version,
        JSON.stringify(offers.accepts),
        expiresAt,
      ],
    );
  }

  /** The payee's unexpired requirements to this payer, newest first. */
  recent(tx: Tx, key: OfferKey): Promise<StoredOffersOf[]> {
    return this.recentOfAny(tx, { ...key, sinkIds: [key.sinkId] });
  }

  /** PY16: the unexpired requirements of any of `sinkIds` to this payer, newest first. */
  async recentOfAny(tx: Tx, key: OffersOfAny): Promise<StoredOffersOf[]> {
    const rows: Row[] = await tx.query(
      `SELECT x402_version, accepts, sink_id FROM ${T}
        WHERE tenant_id = $1 AND payer_id = $2 AND sink_type = $3 AND sink_id = ANY($4::uuid[])
          AND expires_at > now()
        ORDER BY seen_at DESC LIMIT ${RECENT_OFFERS}`,
      [key.tenantId, key.payerId, key.sinkType, key.sinkIds],
    );
    return rows.map((row) => ({
      x402Version: Number(row.x402_version) === 1 ? 1 : 2,
      accepts: row.accepts as Offer[],
      sinkId: String(row.sink_id),
    }));
  }
}

import { Injectable } from '@nestjs/common';
import { Row, Tx, iso, queryNamed, returning } from '@agp/database';

import { Currency, ModelPrice } from './spend.types';
import { trimDecimal } from './usd';

const T = 'relay.model_prices';

export type ModelPriceChange = Pick<
  ModelPrice,
  'model' | 'currency' | 'inputPerMillion' | 'outputPerMillion' | 'cachedInputPerMillion'
>;

/** D60: a tenant's prices per model; every method takes the tenant id. */
@Injectable()
export class ModelPricesRepository {
  async insert(tx: Tx, id: string, tenantId: string, p: ModelPriceChange): Promise<ModelPrice> {
    const [row] = await tx.query<Row[]>(
      `INSERT INTO ${T} (id, tenant_id, model, currency, input_per_million, output_per_million,
         cached_input_per_million)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [
        id,
        tenantId,
        p.model,
        p.currency,
        p.inputPerMillion,
        p.outputPerMillion,
        p.cachedInputPerMillion,
      ],
    );
    return toPrice(row);
  }

  async find(tx: Tx, tenantId: string, id: string, lock = false): Promise<ModelPrice | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [tenantId, id],
    );
    return rows[0] ? toPrice(rows[0]) : undefined;
  }

  /** Up to `limit` of the tenant's prices (R40: what `SpendDirectory` keeps). */
  async all(tx: Tx, tenantId: string, limit: number): Promise<ModelPrice[]> {
    const rows: Row[] = await queryNamed(
      tx,
      `SELECT id, tenant_id, model, currency, input_per_million, output_per_million,
              cached_input_per_million, created_at, updated_at
         FROM ${T} WHERE tenant_id = $1 LIMIT $2`,
      [tenantId, limit],
    );
    return rows.map(toPrice);
  }

  /** SP4: the first of `models` (in that order) that has a price. */
  async firstPriced(tx: Tx, tenantId: string, models: string[]): Promise<ModelPrice | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT p.* FROM ${T} p JOIN unnest($2::text[]) WITH ORDINALITY AS m(model, n)
          ON p.model = m.model
        WHERE p.tenant_id = $1 ORDER BY m.n LIMIT 1`,
      [tenantId, models],
    );
    return rows[0] ? toPrice(rows[0]) : undefined;
  }

  async list(
    tx: Tx,
    tenantId: string,
    limit: number,
    offset: number,
  ): Promise<{ items: ModelPrice[]; total: number }> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${T} WHERE tenant_id = $1 ORDER BY model LIMIT $2 OFFSET $3`,
      [tenantId, limit, offset],
    );
    const [count] = await tx.query<Row[]>(
      `SELECT count(*)::int AS n FROM ${T} WHERE tenant_id = $1`,
      [tenantId],
    );
    return { items: rows.map(toPrice), total: Number(count?.n ?? 0) };
  }

  async update(tx: Tx, tenantId: string, id: string, p: ModelPriceChange): Promise<ModelPrice> {
    const [row] = await returning(
      tx,
      `UPDATE ${T} SET model = $3, currency = $4, input_per_million = $5, output_per_million = $6,
         cached_input_per_million = $7, updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      [
        tenantId,
        id,
        p.model,
        p.currency,
        p.inputPerMillion,
        p.outputPerMillion,
        p.cachedInputPerMillion,
      ],
    );
    return toPrice(row);
  }

  async delete(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${T} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }
}

function toPrice(row: Row): ModelPrice {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    model: String(row.model),
    currency: String(row.currency) as Currency,
    inputPerMillion: trimDecimal(row.input_per_million),
    outputPerMillion: trimDecimal(row.output_per_million),
    cachedInputPerMillion:
      row.cached_input_per_million === null ? null : trimDecimal(row.cached_input_per_million),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

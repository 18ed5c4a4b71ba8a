import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { Checkpoint, CheckpointHead } from './checkpoint.types';

interface CheckpointRow {
  id: string;
  tenant_id: string;
  created_at: Date;
  kid: string;
  heads: CheckpointHead[];
  jws: string;
}

function checkpointOf(row: CheckpointRow): Checkpoint {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    createdAt: row.created_at.toISOString(),
    kid: row.kid,
    heads: row.heads,
    jws: row.jws,
  };
}

export interface CheckpointListQuery {
  from?: Date;
  to?: Date;
  limit: number;
  after?: { createdAt: Date; id: string };
}

@Injectable()
export class CheckpointsRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {
    this.schema = database.schema;
  }

  async allHeads(tx: Tx): Promise<Map<string, CheckpointHead[]>> {
    const rows: Array<{
      tenant_id: string;
      family: CheckpointHead['family'];
      seq: string;
      hash: string;
    }> = await tx.query(
      `SELECT tenant_id, family, seq, encode(hash, 'hex') AS hash FROM ${this.schema}.chain_heads
       WHERE seq > 0 ORDER BY tenant_id, family`,
    );
    const byTenant = new Map<string, CheckpointHead[]>();
    for (const row of rows) {
      const heads = byTenant.get(row.tenant_id) ?? [];
      heads.push({ family: row.family, seq: Number(row.seq), hash: row.hash });
      byTenant.set(row.tenant_id, heads);
    }
    return byTenant;
  }

  async latestHeadsPerTenant(tx: Tx): Promise<Map<string, CheckpointHead[]>> {
    const rows: Array<{ tenant_id: string; heads: CheckpointHead[] }> = await tx.query(
      `SELECT DISTINCT ON (tenant_id) tenant_id, heads FROM ${this.schema}.checkpoints ORDER BY tenant_id, created_at DESC, id`,
    );
    return new Map(rows.map((row) => [row.tenant_id, row.heads]));
  }

  async insert(tx: Tx, checkpoint: Checkpoint): Promise<void> {
    await tx.query(
      `INSERT INTO ${this.schema}.checkpoints (id, tenant_id, created_at, kid, heads, jws) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        checkpoint.id,
        checkpoint.tenantId,
        checkpoint.createdAt,
        checkpoint.kid,
        JSON.stringify(checkpoint.heads),
        checkpoint.jws,
      ],
    );
  }

  async list(tx: Tx, tenantId: string, query: CheckpointListQuery): Promise<Checkpoint[]> {
    const rows: CheckpointRow[] = await tx.query(
      `SELECT id, tenant_id, created_at, kid, heads, jws FROM ${this.schema}.checkpoints
       WHERE tenant_id = $1 AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at < $3)
         AND ($4::timestamptz IS NULL OR (created_at, id) > ($4, $5::uuid))
       ORDER BY created_at, id LIMIT $6`,
      [
        tenantId,
        query.from ?? null,
        query.to ?? null,
        query.after?.createdAt ?? null,
        query.after?.id ?? null,
        query.limit,
      ],
    );
    return rows.map(checkpointOf);
  }

  async allOf(tx: Tx, tenantId: string): Promise<Checkpoint[]> {
    const rows: CheckpointRow[] = await tx.query(
      `SELECT id, tenant_id, created_at, kid, heads, jws FROM ${this.schema}.checkpoints WHERE tenant_id = $1
       ORDER BY created_at, id`,
      [tenantId],
    );
    return rows.map(checkpointOf);
  }
}

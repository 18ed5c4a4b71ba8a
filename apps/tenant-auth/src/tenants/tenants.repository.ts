import { Injectable } from '@nestjs/common';
import { containsPattern, Row, saveRow, selectPage, Tx, Unsaved } from '@agp/database';
import { PageQueryDto, pageOffset } from '@agp/http';

import { ListTenantsQueryDto } from './dto/list-tenants-query.dto';
import { Tenant } from './tenant.types';

const TABLE = 'tenant_auth.tenants';

/** Tenants are not rows of a tenant: these queries run in system scope; the service decides who sees what. */
@Injectable()
export class TenantsRepository {
  async findById(tx: Tx, id: string): Promise<Tenant | null> {
    const rows: Row[] = await tx.query(`SELECT * FROM ${TABLE} WHERE id = $1`, [id]);
    return rows[0] ? toTenant(rows[0]) : null;
  }

  async findBySlugOrId(tx: Tx, slugOrId: string): Promise<Tenant | null> {
    const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(slugOrId);
    if (isId) {
      return this.findById(tx, slugOrId);
    }
    const rows: Row[] = await tx.query(`SELECT * FROM ${TABLE} WHERE slug = $1`, [
      slugOrId.toLowerCase(),
    ]);
    return rows[0] ? toTenant(rows[0]) : null;
  }

  async count(tx: Tx): Promise<number> {
    const [row]: Row[] = await tx.query(`SELECT count(*)::int AS n FROM ${TABLE}`);
    return Number(row.n);
  }

  /** Serialises first-run bootstraps across replicas for the rest of the transaction. */
  async lockBootstrap(tx: Tx): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('tenant_auth.bootstrap'))`);
  }

  async list(
    tx: Tx,
    query: ListTenantsQueryDto & PageQueryDto,
    onlyId?: string,
  ): Promise<[Tenant[], number]> {
    const where = `($1::uuid IS NULL OR id = $1) AND ($2::text IS NULL OR status = $2)
      AND ($3::text IS NULL OR slug ILIKE $3 OR name ILIKE $3)`;
    const params = [
      onlyId ?? null,
      query.status ?? null,
      query.q ? containsPattern(query.q) : null,
    ];
    const [rows, total] = await selectPage(tx, { from: TABLE, where, orderBy: 'slug' }, params, {
      limit: query.pageSize,
      offset: pageOffset(query),
    });
    return [rows.map(toTenant), total];
  }

  async save(tx: Tx, tenant: Unsaved<Tenant>): Promise<Tenant> {
    const row = await saveRow(
      tx,
      TABLE,
      {
        id: tenant.id,
        slug: tenant.slug,
        name: tenant.name,
        status: tenant.status,
        is_operator: tenant.isOperator,
      },
      { key: ['id'], isVersioned: true },
    );
    return toTenant(row);
  }

  async remove(tx: Tx, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${TABLE} WHERE id = $1`, [id]);
  }
}

function toTenant(row: Row): Tenant {
  return {
    id: row.id as string,
    slug: row.slug as string,
    name: row.name as string,
    status: row.status as Tenant['status'],
    isOperator: row.is_operator as boolean,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
    revision: row.revision as number,
  };
}

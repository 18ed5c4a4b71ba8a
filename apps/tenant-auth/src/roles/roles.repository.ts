import { Injectable } from '@nestjs/common';
import { containsPattern, Row, saveRow, selectPage, Tx, Unsaved } from '@agp/database';
import { pageOffset } from '@agp/http';

import { ListRolesQueryDto } from './dto/list-roles-query.dto';
import { Role } from './role.types';

const TABLE = 'tenant_auth.roles';

/** Every method takes the tenant id (STYLE §7); row-level security holds it too. */
@Injectable()
export class RolesRepository {
  async findById(tx: Tx, tenantId: string, id: string): Promise<Role | null> {
    return (await this.findByIds(tx, tenantId, [id]))[0] ?? null;
  }

  async findByIds(tx: Tx, tenantId: string, ids: string[]): Promise<Role[]> {
    if (ids.length === 0) {
      return [];
    }
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${TABLE} WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, ids],
    );
    return rows.map(toRole);
  }

  async list(tx: Tx, tenantId: string, query: ListRolesQueryDto): Promise<[Role[], number]> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR name ILIKE $2)
      AND ($3::text IS NULL OR $3 = ANY(permissions))`;
    const params = [
      tenantId,
      query.name ? containsPattern(query.name) : null,
      query.permission ?? null,
    ];
    const [rows, total] = await selectPage(tx, { from: TABLE, where, orderBy: 'name' }, params, {
      limit: query.pageSize,
      offset: pageOffset(query),
    });
    return [rows.map(toRole), total];
  }

  async save(tx: Tx, role: Unsaved<Role>): Promise<Role> {
    const row = await saveRow(
      tx,
      TABLE,
      {
        id: role.id,
        tenant_id: role.tenantId,
        name: role.name,
        description: role.description,
        permissions: role.permissions,
      },
      { key: ['id'] },
    );
    return toRole(row);
  }

  /** Deletes the role and takes it away from every user and group of the tenant. */
  async remove(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(
      `UPDATE tenant_auth.users SET role_ids = array_remove(role_ids, $2) WHERE tenant_id = $1`,
      [tenantId, id],
    );
    await tx.query(
      `UPDATE tenant_auth.groups SET role_ids = array_remove(role_ids, $2) WHERE tenant_id = $1`,
      [tenantId, id],
    );
    await tx.query(`DELETE FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }
}

function toRole(row: Row): Role {
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    name: row.name as string,
    description: row.description as string,
    permissions: row.permissions as string[],
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}

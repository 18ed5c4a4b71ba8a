import { Injectable } from '@nestjs/common';
import { containsPattern, Row, saveRow, selectPage, Tx, Unsaved } from '@agp/database';
import { pageOffset } from '@agp/http';

import { ListUsersQueryDto } from './dto/list-users-query.dto';
import { User } from './user.types';

const TABLE = 'tenant_auth.users';

@Injectable()
export class UsersRepository {
  async findById(tx: Tx, tenantId: string, id: string): Promise<User | null> {
    const rows: Row[] = await tx.query(`SELECT * FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async findByEmail(tx: Tx, tenantId: string, email: string): Promise<User | null> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${TABLE} WHERE tenant_id = $1 AND email = $2`,
      [tenantId, email.toLowerCase()],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  async list(tx: Tx, tenantId: string, query: ListUsersQueryDto): Promise<[User[], number]> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR status = $2)
      AND ($3::text IS NULL OR email = $3)
      AND ($4::text IS NULL OR email ILIKE $4 OR display_name ILIKE $4)
      AND ($5::uuid IS NULL OR $5 = ANY(role_ids))`;
    const params = [
      tenantId,
      query.status ?? null,
      query.email ? query.email.toLowerCase() : null,
      query.q ? containsPattern(query.q) : null,
      query.roleId ?? null,
    ];
    const [rows, total] = await selectPage(tx, { from: TABLE, where, orderBy: 'email' }, params, {
      limit: query.pageSize,
      offset: pageOffset(query),
    });
    return [rows.map(toUser), total];
  }

  /** D10: the role strings a user holds through its own roles and its groups' roles. */
  async permissionsOf(tx: Tx, tenantId: string, userId: string): Promise<string[]> {
    const rows: Array<{ permission: string }> = await tx.query(
      `SELECT DISTINCT unnest(r.permissions) AS permission
         FROM tenant_auth.roles r
        WHERE r.tenant_id = $1
          AND (r.id = ANY((SELECT role_ids FROM tenant_auth.users WHERE id = $2 AND tenant_id = $1)::uuid[])
               OR r.id IN (SELECT unnest(g.role_ids) FROM tenant_auth.groups g
                             JOIN tenant_auth.group_members m ON m.group_id = g.id
                            WHERE m.user_id = $2 AND g.tenant_id = $1))
        ORDER BY 1`,
      [tenantId, userId],
    );
    return rows.map((row) => row.permission);
  }

  async save(tx: Tx, user: Unsaved<User>): Promise<User> {
    const row = await saveRow(
      tx,
      TABLE,
      {
        id: user.id,
        tenant_id: user.tenantId,
        email: user.email,
        display_name: user.displayName,
        password_hash: user.passwordHash,
        status: user.status,
        role_ids: user.roleIds,
      },
      { key: ['id'], isVersioned: true },
    );
    return toUser(row);
  }

  async remove(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }
}

function toUser(row: Row): User {
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    email: row.email as string,
    displayName: row.display_name as string,
    passwordHash: row.password_hash as string | null,
    status: row.status as User['status'],
    roleIds: row.role_ids as string[],
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
    revision: row.revision as number,
  };
}

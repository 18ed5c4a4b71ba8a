import { Injectable } from '@nestjs/common';
import { containsPattern, Row, saveRow, selectPage, Tx, Unsaved } from '@agp/database';
import { PageQueryDto, pageOffset } from '@agp/http';

import { ListGroupsQueryDto } from './dto/list-groups-query.dto';
import { Group, GroupMember } from './group.types';

const TABLE = 'tenant_auth.groups';

@Injectable()
export class GroupsRepository {
  async findById(tx: Tx, tenantId: string, id: string): Promise<Group | null> {
    const rows: Row[] = await tx.query(`SELECT * FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
    return rows[0] ? toGroup(rows[0]) : null;
  }

  async existingIds(tx: Tx, tenantId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) {
      return new Set();
    }
    const rows: Array<{ id: string }> = await tx.query(
      `SELECT id FROM ${TABLE} WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, ids],
    );
    return new Set(rows.map((row) => row.id));
  }

  async list(tx: Tx, tenantId: string, query: ListGroupsQueryDto): Promise<[Group[], number]> {
    const where = `g.tenant_id = $1 AND ($2::text IS NULL OR g.name ILIKE $2)
      AND ($3::uuid IS NULL OR g.id IN (SELECT group_id FROM tenant_auth.group_members
                                         WHERE user_id = $3 AND tenant_id = $1))
      AND ($4::uuid IS NULL OR $4 = ANY(g.role_ids))`;
    const params = [
      tenantId,
      query.name ? containsPattern(query.name) : null,
      query.memberId ?? null,
      query.roleId ?? null,
    ];
    const [rows, total] = await selectPage(
      tx,
      { from: `${TABLE} g`, where, orderBy: 'g.name' },
      params,
      { limit: query.pageSize, offset: pageOffset(query) },
    );
    return [rows.map(toGroup), total];
  }

  async save(tx: Tx, group: Unsaved<Group>): Promise<Group> {
    const row = await saveRow(
      tx,
      TABLE,
      {
        id: group.id,
        tenant_id: group.tenantId,
        name: group.name,
        description: group.description,
        role_ids: group.roleIds,
      },
      { key: ['id'] },
    );
    return toGroup(row);
  }

  async remove(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  async members(
    tx: Tx,
    tenantId: string,
    groupId: string,
    query: PageQueryDto,
  ): Promise<[GroupMember[], number]> {
    const rows: Array<GroupMember & { total: string }> = await tx.query(
      `SELECT u.id AS "userId", u.email, u.display_name AS "displayName", m.created_at AS "addedAt",
              count(*) OVER () AS total
         FROM tenant_auth.group_members m JOIN tenant_auth.users u ON u.id = m.user_id
        WHERE m.tenant_id = $1 AND m.group_id = $2
        ORDER BY u.email LIMIT $3 OFFSET $4`,
      [tenantId, groupId, query.pageSize, pageOffset(query)],
    );
    return [rows.map(({ total: _total, ...row }) => row), Number(rows[0]?.total ?? 0)];
  }

  async addMember(tx: Tx, tenantId: string, groupId: string, userId: string): Promise<void> {
    await tx.query(
      `INSERT INTO tenant_auth.group_members (tenant_id, group_id, user_id) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [tenantId, groupId, userId],
    );
  }

  /** Whether the user was a member. */
  async removeMember(tx: Tx, tenantId: string, groupId: string, userId: string): Promise<boolean> {
    const [, affected]: [unknown, number] = await tx.query(
      `DELETE FROM tenant_auth.group_members WHERE tenant_id = $1 AND group_id = $2 AND user_id = $3`,
      [tenantId, groupId, userId],
    );
    return affected > 0;
  }
}

function toGroup(row: Row): Group {
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    name: row.name as string,
    description: row.description as string,
    roleIds: row.role_ids as string[],
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}

import { Injectable } from '@nestjs/common';
import { containsPattern, Tx } from '@agp/database';
import { PageQueryDto, pageOffset } from '@agp/http';

import { ListGroupsQueryDto } from './dto/list-groups-query.dto';
import { GroupMember } from './entities/group-member.entity';
import { Group } from './entities/group.entity';

export interface MemberRow {
  userId: string;
  email: string;
  displayName: string;
  addedAt: Date;
}

@Injectable()
export class GroupsRepository {
  findById(tx: Tx, tenantId: string, id: string): Promise<Group | null> {
    return tx.getRepository(Group).findOneBy({ tenantId, id });
  }

  async existingIds(tx: Tx, tenantId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) {
      return new Set();
    }
    const rows: Array<{ id: string }> = await tx.query(
      `SELECT id FROM tenant_auth.groups WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, ids],
    );
    return new Set(rows.map((row) => row.id));
  }

  list(tx: Tx, tenantId: string, query: ListGroupsQueryDto): Promise<[Group[], number]> {
    const qb = tx
      .getRepository(Group)
      .createQueryBuilder('g')
      .where('g.tenant_id = :tenantId', { tenantId });
    if (query.name) {
      qb.andWhere('g.name ILIKE :name', { name: containsPattern(query.name) });
    }
    if (query.memberId) {
      qb.andWhere(
        'g.id IN (SELECT group_id FROM tenant_auth.group_members WHERE user_id = :memberId AND tenant_id = :tenantId)',
        {
          memberId: query.memberId,
        },
      );
    }
    if (query.roleId) {
      qb.andWhere(':roleId = ANY(g.role_ids)', { roleId: query.roleId });
    }
    return qb
      .orderBy('g.name', 'ASC')
      .skip(pageOffset(query))
      .take(query.pageSize)
      .getManyAndCount();
  }

  save(tx: Tx, group: Group): Promise<Group> {
    return tx.getRepository(Group).save(group);
  }

  async remove(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.getRepository(Group).delete({ tenantId, id });
  }

  async members(
    tx: Tx,
    tenantId: string,
    groupId: string,
    query: PageQueryDto,
  ): Promise<[MemberRow[], number]> {
    const rows: Array<MemberRow & { total: string }> = await tx.query(
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
    await tx
      .getRepository(GroupMember)
      .createQueryBuilder()
      .insert()
      .values({ tenantId, groupId, userId })
      .orIgnore()
      .execute();
  }

  /** Whether the user was a member. */
  async removeMember(tx: Tx, tenantId: string, groupId: string, userId: string): Promise<boolean> {
    const result = await tx.getRepository(GroupMember).delete({ tenantId, groupId, userId });
    return (result.affected ?? 0) > 0;
  }
}

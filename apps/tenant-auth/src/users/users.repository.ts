import { Injectable } from '@nestjs/common';
import { containsPattern, Tx } from '@agp/database';
import { pageOffset } from '@agp/http';

import { ListUsersQueryDto } from './dto/list-users-query.dto';
import { User } from './entities/user.entity';

@Injectable()
export class UsersRepository {
  findById(tx: Tx, tenantId: string, id: string): Promise<User | null> {
    return tx.getRepository(User).findOneBy({ tenantId, id });
  }

  findByEmail(tx: Tx, tenantId: string, email: string): Promise<User | null> {
    return tx.getRepository(User).findOneBy({ tenantId, email: email.toLowerCase() });
  }

  list(tx: Tx, tenantId: string, query: ListUsersQueryDto): Promise<[User[], number]> {
    const qb = tx
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.tenant_id = :tenantId', { tenantId });
    if (query.status) {
      qb.andWhere('u.status = :status', { status: query.status });
    }
    if (query.email) {
      qb.andWhere('u.email = :email', { email: query.email.toLowerCase() });
    }
    if (query.q) {
      qb.andWhere('(u.email ILIKE :q OR u.display_name ILIKE :q)', { q: containsPattern(query.q) });
    }
    if (query.roleId) {
      qb.andWhere(':roleId = ANY(u.role_ids)', { roleId: query.roleId });
    }
    return qb
      .orderBy('u.email', 'ASC')
      .skip(pageOffset(query))
      .take(query.pageSize)
      .getManyAndCount();
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

  save(tx: Tx, user: User): Promise<User> {
    return tx.getRepository(User).save(user);
  }

  async remove(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.getRepository(User).delete({ tenantId, id });
  }
}

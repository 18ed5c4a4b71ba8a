import { Injectable } from '@nestjs/common';
import { containsPattern, Tx } from '@agp/database';
import { pageOffset } from '@agp/http';
import { In } from 'typeorm';

import { ListRolesQueryDto } from './dto/list-roles-query.dto';
import { Role } from './entities/role.entity';

/** Every method takes the tenant id (STYLE §7); row-level security holds it too. */
@Injectable()
export class RolesRepository {
  findById(tx: Tx, tenantId: string, id: string): Promise<Role | null> {
    return tx.getRepository(Role).findOneBy({ tenantId, id });
  }

  findByIds(tx: Tx, tenantId: string, ids: string[]): Promise<Role[]> {
    return ids.length === 0
      ? Promise.resolve([])
      : tx.getRepository(Role).findBy({ tenantId, id: In(ids) });
  }

  list(tx: Tx, tenantId: string, query: ListRolesQueryDto): Promise<[Role[], number]> {
    const qb = tx
      .getRepository(Role)
      .createQueryBuilder('r')
      .where('r.tenant_id = :tenantId', { tenantId });
    if (query.name) {
      qb.andWhere('r.name ILIKE :name', { name: containsPattern(query.name) });
    }
    if (query.permission) {
      qb.andWhere(':permission = ANY(r.permissions)', { permission: query.permission });
    }
    return qb
      .orderBy('r.name', 'ASC')
      .skip(pageOffset(query))
      .take(query.pageSize)
      .getManyAndCount();
  }

  save(tx: Tx, role: Role): Promise<Role> {
    return tx.getRepository(Role).save(role);
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
    await tx.getRepository(Role).delete({ tenantId, id });
  }
}

import { Injectable } from '@nestjs/common';
import { containsPattern, Tx } from '@agp/database';
import { PageQueryDto, pageOffset } from '@agp/http';

import { Tenant } from './entities/tenant.entity';
import { ListTenantsQueryDto } from './dto/list-tenants-query.dto';

/** Tenants are not rows of a tenant: these queries run in system scope; the service decides who sees what. */
@Injectable()
export class TenantsRepository {
  findById(tx: Tx, id: string): Promise<Tenant | null> {
    return tx.getRepository(Tenant).findOneBy({ id });
  }

  findBySlugOrId(tx: Tx, slugOrId: string): Promise<Tenant | null> {
    const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(slugOrId);
    return tx
      .getRepository(Tenant)
      .findOneBy(isId ? { id: slugOrId } : { slug: slugOrId.toLowerCase() });
  }

  async count(tx: Tx): Promise<number> {
    return tx.getRepository(Tenant).count();
  }

  async list(
    tx: Tx,
    query: ListTenantsQueryDto & PageQueryDto,
    onlyId?: string,
  ): Promise<[Tenant[], number]> {
    const qb = tx.getRepository(Tenant).createQueryBuilder('t').orderBy('t.slug', 'ASC');
    if (onlyId) {
      qb.andWhere('t.id = :onlyId', { onlyId });
    }
    if (query.status) {
      qb.andWhere('t.status = :status', { status: query.status });
    }
    if (query.q) {
      qb.andWhere('(t.slug ILIKE :q OR t.name ILIKE :q)', { q: containsPattern(query.q) });
    }
    return qb.skip(pageOffset(query)).take(query.pageSize).getManyAndCount();
  }

  save(tx: Tx, tenant: Tenant): Promise<Tenant> {
    return tx.getRepository(Tenant).save(tenant);
  }

  async remove(tx: Tx, id: string): Promise<void> {
    await tx.getRepository(Tenant).delete({ id });
  }
}

import { Injectable } from '@nestjs/common';
import { containsPattern, Tx } from '@agp/database';
import { pageOffset } from '@agp/http';

import { ListClientsQueryDto } from './dto/list-clients-query.dto';
import { Client, ClientKind } from './entities/client.entity';

@Injectable()
export class ClientsRepository {
  findById(tx: Tx, tenantId: string, kind: ClientKind, id: string): Promise<Client | null> {
    return tx.getRepository(Client).findOneBy({ tenantId, kind, id });
  }

  /** The token endpoint's lookup (system scope: the tenant is not known before the client is). */
  findForToken(tx: Tx, id: string): Promise<Client | null> {
    return tx.getRepository(Client).findOneBy({ id });
  }

  list(
    tx: Tx,
    tenantId: string,
    kind: ClientKind,
    query: ListClientsQueryDto,
  ): Promise<[Client[], number]> {
    const qb = tx
      .getRepository(Client)
      .createQueryBuilder('c')
      .where('c.tenant_id = :tenantId AND c.kind = :kind', { tenantId, kind });
    if (query.status) {
      qb.andWhere('c.status = :status', { status: query.status });
    }
    if (query.name) {
      qb.andWhere('c.name ILIKE :name', { name: containsPattern(query.name) });
    }
    return qb
      .orderBy('c.name', 'ASC')
      .skip(pageOffset(query))
      .take(query.pageSize)
      .getManyAndCount();
  }

  save(tx: Tx, client: Client): Promise<Client> {
    return tx.getRepository(Client).save(client);
  }

  async remove(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.getRepository(Client).delete({ tenantId, id });
  }
}

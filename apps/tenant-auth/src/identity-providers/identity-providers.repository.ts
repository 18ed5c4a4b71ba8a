import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { IdentityProvider } from './entities/identity-provider.entity';

@Injectable()
export class IdentityProvidersRepository {
  findById(tx: Tx, tenantId: string, id: string): Promise<IdentityProvider | null> {
    return tx.getRepository(IdentityProvider).findOneBy({ tenantId, id });
  }

  /** Operation 5: a plain array (D31), by alias. */
  list(tx: Tx, tenantId: string): Promise<IdentityProvider[]> {
    return tx
      .getRepository(IdentityProvider)
      .find({ where: { tenantId }, order: { alias: 'ASC' } });
  }

  save(tx: Tx, provider: IdentityProvider): Promise<IdentityProvider> {
    return tx.getRepository(IdentityProvider).save(provider);
  }

  async remove(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.getRepository(IdentityProvider).delete({ tenantId, id });
  }
}

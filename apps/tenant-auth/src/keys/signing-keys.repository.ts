import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';
import { IsNull, MoreThan } from 'typeorm';

import { SigningKey } from './entities/signing-key.entity';

@Injectable()
export class SigningKeysRepository {
  /** Serialises rotations across replicas for the rest of the transaction. */
  async lock(tx: Tx): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('tenant_auth.signing_keys'))`);
  }

  active(tx: Tx): Promise<SigningKey | null> {
    return tx
      .getRepository(SigningKey)
      .findOne({ where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  /** D9: the active key and every retired key some unexpired token may still carry. */
  published(tx: Tx): Promise<SigningKey[]> {
    return tx.getRepository(SigningKey).find({
      where: [{ retiredAt: IsNull() }, { publishedUntil: MoreThan(new Date()) }],
      order: { createdAt: 'DESC' },
    });
  }

  async retireActive(tx: Tx, publishedUntil: Date): Promise<void> {
    await tx
      .getRepository(SigningKey)
      .update({ retiredAt: IsNull() }, { retiredAt: new Date(), publishedUntil });
  }

  async insert(tx: Tx, key: SigningKey): Promise<void> {
    await tx.getRepository(SigningKey).insert(key);
  }

  /** Retired keys no token can carry any more are of no use: their sealed private halves go. */
  async pruneExpired(tx: Tx): Promise<void> {
    await tx.query(
      `DELETE FROM tenant_auth.signing_keys WHERE published_until IS NOT NULL AND published_until < now() - interval '1 day'`,
    );
  }
}

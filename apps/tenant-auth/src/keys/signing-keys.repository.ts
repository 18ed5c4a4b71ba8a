import { Injectable } from '@nestjs/common';
import { Row, Tx } from '@agp/database';
import { JWK } from 'jose';

import { SigningKey } from './signing-key.types';

const TABLE = 'tenant_auth.signing_keys';

@Injectable()
export class SigningKeysRepository {
  /** Serialises rotations across replicas for the rest of the transaction. */
  async lock(tx: Tx): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('tenant_auth.signing_keys'))`);
  }

  async active(tx: Tx): Promise<SigningKey | null> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${TABLE} WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1`,
    );
    return rows[0] ? toKey(rows[0]) : null;
  }

  /** D9: the active key and every retired key some unexpired token may still carry. */
  async published(tx: Tx): Promise<SigningKey[]> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${TABLE} WHERE retired_at IS NULL OR published_until > $1
        ORDER BY created_at DESC`,
      [new Date()],
    );
    return rows.map(toKey);
  }

  async retireActive(tx: Tx, publishedUntil: Date): Promise<void> {
    await tx.query(
      `UPDATE ${TABLE} SET retired_at = $1, published_until = $2 WHERE retired_at IS NULL`,
      [new Date(), publishedUntil],
    );
  }

  async insert(
    tx: Tx,
    key: Pick<SigningKey, 'kid' | 'privateKeySealed' | 'publicJwk'>,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${TABLE} (kid, private_key_sealed, public_jwk) VALUES ($1, $2, $3)`,
      [key.kid, key.privateKeySealed, JSON.stringify(key.publicJwk)],
    );
  }

  /** Retired keys no token can carry any more are of no use: their sealed private halves go. */
  async pruneExpired(tx: Tx): Promise<void> {
    await tx.query(
      `DELETE FROM ${TABLE} WHERE published_until IS NOT NULL AND published_until < now() - interval '1 day'`,
    );
  }
}

function toKey(row: Row): SigningKey {
  return {
    kid: row.kid as string,
    privateKeySealed: row.private_key_sealed as string,
    publicJwk: row.public_jwk as JWK,
    createdAt: row.created_at as Date,
    retiredAt: row.retired_at as Date | null,
    publishedUntil: row.published_until as Date | null,
  };
}

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { JWK } from 'jose';

import { AUDIT_DATABASE } from '../database/tokens';

export interface SigningKeyRow {
  kid: string;
  publicJwk: JWK;
  privateKeyEncrypted: string | null;
  createdAt: Date;
}

/** Signing keys are the service's, not a tenant's: no tenant id, read in the system scope. */
@Injectable()
export class SigningKeysRepository {
  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {}

  /** Serialises key creation across replicas for the transaction's duration. */
  withKeyLock<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.database.asSystem(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('agp:audit:signing-key'))`);
      return work(tx);
    });
  }

  async latestStored(tx: Tx): Promise<SigningKeyRow | undefined> {
    const rows: Array<{
      kid: string;
      public_jwk: JWK;
      private_key_encrypted: string | null;
      created_at: Date;
    }> = await tx.query(
      `SELECT kid, public_jwk, private_key_encrypted, created_at FROM ${this.database.schema}.signing_keys
       WHERE private_key_encrypted IS NOT NULL ORDER BY created_at DESC LIMIT 1`,
    );
    const row = rows[0];
    return row
      ? {
          kid: row.kid,
          publicJwk: row.public_jwk,
          privateKeyEncrypted: row.private_key_encrypted,
          createdAt: row.created_at,
        }
      : undefined;
  }

  async insert(
    tx: Tx,
    kid: string,
    publicJwk: JWK,
    privateKeyEncrypted: string | null,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${this.database.schema}.signing_keys (kid, public_jwk, private_key_encrypted) VALUES ($1, $2, $3)
       ON CONFLICT (kid) DO NOTHING`,
      [kid, JSON.stringify(publicJwk), privateKeyEncrypted],
    );
  }

  async publicKeys(): Promise<Array<{ kid: string; publicJwk: JWK; createdAt: Date }>> {
    const rows: Array<{ kid: string; public_jwk: JWK; created_at: Date }> =
      await this.database.asSystem((tx) =>
        tx.query(
          `SELECT kid, public_jwk, created_at FROM ${this.database.schema}.signing_keys ORDER BY created_at`,
        ),
      );
    return rows.map((row) => ({
      kid: row.kid,
      publicJwk: row.public_jwk,
      createdAt: row.created_at,
    }));
  }
}

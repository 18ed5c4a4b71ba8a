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
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  /** Serialises key creation across replicas for the rest of the transaction. */
  async lock(tx: Tx): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('agp:audit:signing-key'))`);
  }

  async latestStored(tx: Tx): Promise<SigningKeyRow | undefined> {
    const rows: Array<{
      kid: string;
      public_jwk: JWK;
      private_key_encrypted: string | null;
      created_at: Date;
    }> = await tx.query(
      `SELECT kid, public_jwk, private_key_encrypted, created_at FROM ${this.schema}.signing_keys
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
      `INSERT INTO ${this.schema}.signing_keys (kid, public_jwk, private_key_encrypted) VALUES ($1, $2, $3)
       ON CONFLICT (kid) DO NOTHING`,
      [kid, JSON.stringify(publicJwk), privateKeyEncrypted],
    );
  }

  async publicKeys(tx: Tx): Promise<Array<{ kid: string; publicJwk: JWK; createdAt: Date }>> {
    const rows: Array<{ kid: string; public_jwk: JWK; created_at: Date }> = await tx.query(
      `SELECT kid, public_jwk, created_at FROM ${this.schema}.signing_keys ORDER BY created_at`,
    );
    return rows.map((row) => ({
      kid: row.kid,
      publicJwk: row.public_jwk,
      createdAt: row.created_at,
    }));
  }
}
